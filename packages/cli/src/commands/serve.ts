import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { BatonError } from "@baton/engine/errors";
import { isLoopbackHost, startServer } from "@baton/server";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { visibleText } from "../render/terminal-text.ts";
import { openProjectStore } from "../project-store.ts";

/** As program.ts reads them: `port` is a whole number from 0 to 65535. */
export type ServeOptions = { port: number; host: string; allowHost: string[]; allowRemote?: boolean; otel?: boolean };

/** The launcher runs started through the API are spawned with: this CLI, as users start it. */
const CLI_ENTRY = fileURLToPath(new URL("../../bin/baton.js", import.meta.url));

/** A token given in BATON_SERVE_TOKEN must be hard enough to guess and safe in a URL. */
const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,256}$/;

/**
 * `baton serve`: the HTTP API, the live streams and the web UI of this repository's runs,
 * until Ctrl-C or SIGTERM. Runs started through it are their own processes: stopping the
 * server ends none of them.
 */
export async function serveCommand(ctx: CliContext, options: ServeOptions): Promise<number> {
  const port = options.port;
  if (!isLoopbackHost(options.host) && options.allowRemote !== true) {
    throw new BatonError("usage", `--host ${options.host} would open the API to other machines`, {
      hint: "pass --allow-remote as well to mean it (the token still guards every request)",
    });
  }
  const token = ctx.env["BATON_SERVE_TOKEN"];
  if (token !== undefined && !TOKEN_PATTERN.test(token)) {
    throw new BatonError("usage", "BATON_SERVE_TOKEN must be 16 to 256 characters of A-Z a-z 0-9 . _ ~ -", { hint: "for example: openssl rand -hex 24" });
  }
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const server = await startServer({
    store,
    projectRoot: project.root,
    cliEntry: CLI_ENTRY,
    host: options.host,
    port,
    token,
    allowHosts: options.allowHost,
    runEnv: ctx.env,
  });
  // Loaded only with --otel: the OpenTelemetry SDK costs the server nothing otherwise.
  const otel = options.otel === true ? await (await import("./serve-otel.ts")).startServeExport(ctx, store, project.batonDir) : undefined;
  try {
    ctx.stdout.write(`Baton is serving the runs of ${visibleText(project.root)}\n  ${visibleText(server.openUrl)}\n`);
    if (otel !== undefined) ctx.stdout.write(`Exporting every run's spans to ${visibleText(otel.url)} (cursor in ${visibleText(project.batonDir)}/otel-cursor.json)\n`);
    ctx.stdout.write(`The token is also in ${visibleText(project.batonDir)}/serve.json (owner-only). Ctrl-C stops the server; runs keep going.\n`);
    if (!ctx.signal.aborted) await once(ctx.signal, "abort");
  } finally {
    await otel?.stop();
    await server.close();
  }
  return EXIT.succeeded;
}
