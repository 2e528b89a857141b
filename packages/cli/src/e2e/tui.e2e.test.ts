import assert from "node:assert/strict";
import { test } from "node:test";
import { cliEnv, makeRepo, runBaton } from "./cli-harness.ts";

test("baton tui refuses bad input in one line, exit 2: no terminal, a URL that is not one or not http, no token, --token without --url", async () => {
  const repo = await makeRepo("cli-tui-bad-");
  const cases: Array<[string[], RegExp, Record<string, string>?]> = [
    [["tui"], /^baton: baton tui needs a terminal \(stdin and stdout\): use baton runs, baton show RUN or baton attach RUN where there is none\n$/],
    [["tui", "--url", "not a url"], /^baton: --url "not a url" is not a URL: pass the URL baton serve printed, e\.g\. http:\/\/127\.0\.0\.1:8080\n$/],
    [["tui", "--url", "ftp://example.com/"], /^baton: --url must be http or https, not ftp: /],
    [["tui", "--url", "http://127.0.0.1:8080/"], /^baton: baton tui --url needs the server's token: pass --token TOKEN \(or the URL with its \?token=, or set BATON_SERVE_TOKEN\)\n$/],
    [["tui", "--token", "abc"], /^baton: --token goes with --url: baton tui --url http:\/\/HOST:PORT --token TOKEN\n$/],
    [["tui", "--url", ""], /^baton: .*--url/],
  ];
  for (const [args, pattern, env] of cases) {
    const result = await runBaton(repo, args, { env: cliEnv(env) });
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, pattern, args.join(" "));
    assert.equal(result.stdout, "", "nothing drawn");
  }
  // With a token from the URL or the environment, only the missing terminal is left to refuse.
  for (const [args, env] of [[["tui", "--url", "http://127.0.0.1:8080/?token=t0123456789abcdef"], {}], [["tui", "--url", "http://127.0.0.1:8080"], { BATON_SERVE_TOKEN: "t0123456789abcdef" }]] as const) {
    const result = await runBaton(repo, [...args], { env: cliEnv(env) });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^baton: baton tui needs a terminal/);
  }
});
