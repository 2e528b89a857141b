import module from "node:module";
const parents = new Map();
module.registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); if (!parents.has(r.url)) parents.set(r.url, ctx.parentURL); return r; } });
await import(process.argv[2]);
const short = (u) => (u ?? "").replace(/.*\/(node_modules|packages)\//, "");
for (const [u, p] of parents) if (short(u).includes(process.argv[3])) console.log(short(u), "<=", short(p));
