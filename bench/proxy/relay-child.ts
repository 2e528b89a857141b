// The floor of any hop: a bare TCP relay in a process of its own, between the client and the
// upstream given as the first argument. It copies bytes both ways and reads nothing, so the
// latency it adds is what leaving for another process costs on this machine. Prints its base URL
// and its CPU time as one line (`{url, cpuMs}`), then relays until stdin closes, and then prints
// `{cpuMs}`: its CPU time (user + system) so far.
import { connect, createServer, type AddressInfo } from "node:net";

const target = new URL(process.argv[2] ?? "");
const relay = createServer({ noDelay: true }, (client) => {
  const upstream = connect({ host: target.hostname, port: Number(target.port), noDelay: true });
  client.pipe(upstream).on("error", () => client.destroy());
  upstream.pipe(client).on("error", () => upstream.destroy());
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
});
await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
const cpuMs = () => {
  const cpu = process.cpuUsage();
  return (cpu.user + cpu.system) / 1000;
};
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`, cpuMs: cpuMs() })}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  process.stdout.write(`${JSON.stringify({ cpuMs: cpuMs() })}\n`);
  process.exit(0);
});
