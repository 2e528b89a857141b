import { BatonError } from "@baton/engine";
import type { TuiSource } from "../tui/tui-source.ts";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { whoAmI } from "./people-request.ts";
import { openProjectStore } from "../project-store.ts";

/** The alternate screen: what was on the terminal comes back when the UI ends. */
const ALTERNATE_ON = "\x1b[?1049h";
const ALTERNATE_OFF = "\x1b[?1049l";

export type TuiOptions = { url?: string; token?: string };

/**
 * `baton tui`: runs in a terminal UI (ink), read from the project's store, or from a
 * `baton serve` URL with its token: a live run list, and a run's view with its timeline,
 * stages, plan, tool calls, usage and cost; keys act on the run.
 */
export async function tuiCommand(ctx: CliContext, options: TuiOptions = {}): Promise<number> {
  const remote = options.url === undefined ? undefined : serverOf(ctx, options.url, options.token);
  if (options.url === undefined && options.token !== undefined) throw new BatonError("usage", "--token goes with --url", { hint: "baton tui --url http://HOST:PORT --token TOKEN" });
  if (ctx.interactive !== true || ctx.stdout.isTTY !== true) {
    throw new BatonError("usage", "baton tui needs a terminal (stdin and stdout)", { hint: "use baton runs, baton show RUN or baton attach RUN where there is none" });
  }
  const { render } = await (await import("../tui/load-ink.ts")).loadInk();
  const [{ createElement }, { TuiApp }] = await Promise.all([import("react"), import("../tui/app.ts")]);
  const show = async (source: TuiSource) => {
    ctx.stdout.write(ALTERNATE_ON);
    try {
      const instance = render(createElement(TuiApp, { source }), { stdout: ctx.stdout, exitOnCtrlC: true });
      ctx.signal.addEventListener("abort", () => instance.unmount(), { once: true });
      await instance.waitUntilExit();
    } finally {
      ctx.stdout.write(ALTERNATE_OFF);
    }
  };
  if (remote !== undefined) {
    const { httpSource } = await import("../tui/http-source.ts");
    await show(httpSource(remote.url, remote.token, whoAmI(ctx)));
    return EXIT.succeeded;
  }
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const { storeSource } = await import("../tui/tui-source.ts");
  const { resumeCommand } = await import("./resume.ts");
  // A gate's decision resumes the run in the background, as `baton approve --detach` does; its
  // output would draw over the screen, so it goes nowhere (the run's stream shows what it did).
  const quiet = { ...ctx, stdout: nullStream(), stderr: nullStream() };
  const source = storeSource(store, {
    who: whoAmI(ctx),
    resume: async (runId, decision) => {
      const code = await resumeCommand(quiet, runId, { detach: true }, decision);
      if (code !== EXIT.succeeded) throw new BatonError("resume_failed", `the run did not resume (exit ${code})`, { hint: "see baton show RUN" });
    },
  });
  await show(source);
  return EXIT.succeeded;
}

/** The server's URL and token: the token from --token, the URL's own ?token=, or BATON_SERVE_TOKEN. */
function serverOf(ctx: CliContext, text: string, flag: string | undefined): { url: string; token: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BatonError("usage", `--url ${JSON.stringify(text)} is not a URL`, { hint: "pass the URL baton serve printed, e.g. http://127.0.0.1:8080" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new BatonError("usage", `--url must be http or https, not ${url.protocol.replace(/:$/, "")}`, { hint: "pass the URL baton serve printed" });
  const token = flag ?? url.searchParams.get("token") ?? ctx.env["BATON_SERVE_TOKEN"];
  if (token === undefined || token === "") throw new BatonError("usage", "baton tui --url needs the server's token", { hint: "pass --token TOKEN (or the URL with its ?token=, or set BATON_SERVE_TOKEN)" });
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, "")}`, token };
}

function nullStream(): NodeJS.WriteStream {
  return { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
}
