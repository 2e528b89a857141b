/**
 * The relay that runs inside the sandbox, under the same Node binary as Baton: it listens on
 * 127.0.0.1 at the inference proxy's port, in the sandbox's own network namespace, and pipes
 * each connection to the proxy's unix socket bound into the sandbox. The agent keeps the base
 * URL it was given (`http://127.0.0.1:PORT/…`); no other address answers.
 *
 * Arguments: PORT SOCKET. When it listens it writes `ready` to file descriptor 3 and closes it;
 * its own failures go to standard error (standard output is the agent's ACP stream).
 */
export const RELAY_SOURCE = `
const net = require("node:net");
const fs = require("node:fs");
const [port, socket] = process.argv.slice(1);
const server = net.createServer({ noDelay: true }, (client) => {
  const upstream = net.connect(socket);
  upstream.setNoDelay(true);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
});
server.on("error", (error) => { process.stderr.write("baton sandbox relay: " + error.message + "\\n"); process.exit(1); });
server.listen(Number(port), "127.0.0.1", () => { fs.writeSync(3, "ready\\n"); fs.closeSync(3); });
`;

/** Where the proxy's socket is bound inside the sandbox. */
export const SANDBOX_PROXY_SOCKET = "/run/baton/proxy.sock";

/**
 * The shell line the sandbox runs first: the relay in the background, a wait until it listens
 * (a fifo, no polling), then `exec` of the agent's command (its arguments after the script's
 * own: `$0` is the relay's source). A relay that cannot listen ends the start with exit 97.
 */
export const RELAY_LAUNCHER = [
  'node="$1"; port="$2"; socket="$3"; shift 3',
  "fifo=/tmp/.baton-relay-ready",
  'mkfifo "$fifo" || exit 97',
  '"$node" -e "$0" "$port" "$socket" 3>"$fifo" </dev/null >&2 &',
  'read -r ready <"$fifo"; rm -f "$fifo"',
  '[ "$ready" = ready ] || { echo "baton: the sandbox relay to the inference proxy did not start" >&2; exit 97; }',
  'exec "$@"',
].join("\n");
