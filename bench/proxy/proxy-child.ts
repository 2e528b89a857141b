// The inference proxy in a process of its own, as it runs inside Baton: started on the upstream
// given as the first argument, one grant issued; prints `{url, token, cpuMs}` as one line, then
// serves until stdin closes, and then prints `{calls, cpuMs}`: the model calls it recorded and
// its CPU time (user + system) so far, for the CPU a call costs the proxy.
import { InferenceProxy } from "../../packages/engine/src/proxy/index.ts";

const cpuMs = () => {
  const cpu = process.cpuUsage();
  return (cpu.user + cpu.system) / 1000;
};
const upstream = process.argv[2] ?? "";
const proxy = await InferenceProxy.start({ upstreams: { anthropic: { baseUrl: upstream, key: "bench-upstream-key" } } });
let calls = 0;
const grant = proxy.issue({ limits: {}, emit: (type) => (calls += type === "model.request.completed" ? 1 : 0) });
process.stdout.write(`${JSON.stringify({ url: proxy.baseUrl("anthropic"), token: grant.token, cpuMs: cpuMs() })}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  process.stdout.write(`${JSON.stringify({ calls, cpuMs: cpuMs() })}\n`);
  void proxy.close().then(() => process.exit(0));
});
