import { isIP } from "node:net";

/**
 * True for a host that only this machine can reach: `localhost`, 127.0.0.0/8, `::1`. Any
 * other address (0.0.0.0, a LAN address, a name) exposes the API to the network.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost") return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  if (isIP(name) === 6) return name === "::1" || name === "0:0:0:0:0:0:0:1";
  return false;
}
