// Hostile input, fake-agent scripts: files that are not scripts, named on the command line or
// through the API. Errors say where a file goes wrong, never what it holds, and the API plays
// only a script it was sent or a file inside the project.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import { SseReader } from "@baton/server/testing";
import { cliEnv, git, linesOf, makeRepo, runBaton, startBaton } from "./cli-harness.ts";

/** What the hostile files hold: no output or answer may contain it. */
const PRIVATE = "hunter2-the-private-part";

test("baton run --script with a file that is not a script names the line and column, never its content", async () => {
  const repo = await makeRepo("cli-hostile-script-file-");
  const dir = await testTempDir("cli-hostile-script-files-");
  const files = {
    "passwd-like": [`root:x:0:0:${PRIVATE}:/root:/bin/bash\n`, /not valid JSON \(at line 1, column 1\)/],
    "json, unquoted value": [`[\n  {"say": ${PRIVATE}}\n]\n`, /not valid JSON \(at line 2, column 11\)/],
    "json, not a script": [JSON.stringify({ turns: [[{ say: 1 }]], db_password: PRIVATE }), /unknown key "db_password" at top level/],
  } as const;
  for (const [name, [content, expected]] of Object.entries(files)) {
    const path = join(dir, `${name.replaceAll(/\W+/g, "-")}.json`);
    await writeFile(path, content);
    const result = await runBaton(repo, ["run", "Play", "--agent", "fake", "--script", path]);
    assert.equal(result.code, 2, `${name}: ${result.stderr}`);
    assert.equal(linesOf(result.stderr).length, 1, name);
    assert.match(result.stderr, expected, name);
    assert.ok(!(result.stdout + result.stderr).includes(PRIVATE), `${name}: the error quotes nothing of the file`);
  }
  const device = await runBaton(repo, ["run", "Play", "--agent", "fake", "--script", "/dev/zero"]);
  assert.equal(device.code, 2);
  assert.match(device.stderr, /\/dev\/zero: cannot read: not a regular file/);
});

test("POST /api/runs plays steps sent as the script or a file in the project, refuses any other path, and quotes no file", async () => {
  const repo = await makeRepo("cli-hostile-script-api-");
  const outside = join(await testTempDir("cli-hostile-script-outside-"), "secrets.json");
  await writeFile(outside, `{"password": "${PRIVATE}"`);
  await writeFile(join(repo, "notes.txt"), `db_password=${PRIVATE}\n`);
  await git(repo, "add", "notes.txt");
  await git(repo, "commit", "-q", "-m", "Add notes");
  const server = startBaton(repo, ["serve", "--port", "0"], { env: cliEnv() });
  try {
    const urlLine = /^\s*http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)$/m;
    await server.waitForStdout("the URL", (stdout) => urlLine.test(stdout));
    const [, port, token] = urlLine.exec(server.stdout) as RegExpExecArray;
    const base = `http://127.0.0.1:${port as string}`;
    const auth = { authorization: `Bearer ${token as string}` };
    const post = (script: unknown) =>
      fetch(`${base}/api/runs`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ task: "Play", agent: "fake", script, require_output: "none" }) });

    for (const path of ["/etc/shadow", "/etc/passwd", outside, "../../etc/passwd"]) {
      const response = await post(path);
      const text = await response.text();
      assert.equal(response.status, 400, `${path}: ${text}`);
      assert.ok(!text.includes(PRIVATE) && !text.includes("root:"), `${path}: ${text}`);
    }
    const notScript = await post("notes.txt");
    const refusal = await notScript.text();
    assert.equal(notScript.status, 422, refusal);
    assert.match(refusal, /not valid JSON \(at line 1, column 1\)/);
    assert.ok(!refusal.includes(PRIVATE), refusal);

    const played = await post([{ say: "Sent with the request." }]);
    assert.equal(played.status, 201, await played.clone().text());
    const { run } = (await played.json()) as { run: { id: string } };
    const stream = await SseReader.open(`${base}/api/runs/${run.id}/stream`, auth);
    await stream.ended;
    const events = stream.events<Envelope>();
    assert.equal(events.find((event) => event.type === "agent.message")?.data["text"], "Sent with the request.");
    assert.equal(events.at(-1)?.data["status"], "succeeded");
  } finally {
    server.child.kill("SIGTERM");
    await server.done;
  }
});
