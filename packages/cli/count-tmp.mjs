import module from "node:module";
const seen = new Set();
module.registerHooks({ load(url, ctx, next) { seen.add(url); return next(url, ctx); } });
await import(process.argv[2]);
const list = [...seen].filter(u => u.startsWith("file:")).map(u => u.replace(/.*\/(node_modules|packages)\//, ""));
const groups = {};
for (const u of list) { const g = u.split("/").slice(0, u.startsWith("@") ? 2 : (u.includes("/src/") ? 3 : 1)).join("/"); groups[g] = (groups[g] ?? 0) + 1; }
console.log(list.length, JSON.stringify(Object.entries(groups).sort((a,b)=>b[1]-a[1])));
if (process.argv[3]) console.log(list.filter(u => u.includes(process.argv[3])).join("\n"));
