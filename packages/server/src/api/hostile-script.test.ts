// Hostile input, the API's `script`: any path on the machine, a way out of the project, a value
// of the wrong kind. No answer may quote a file, and no path outside the project reaches the CLI.
import assert from "node:assert/strict";
import { readFile, stat, symlink, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout } from "node:timers/promises";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import { AUTH, makeProject, testApp } from "../testing/server-fixtures.ts";

/** What a file outside the project holds: no answer may contain any of it. */
const OUTSIDE_CONTENT = "root:$6$outside-the-project-hash:19000:0:99999:7:::\n";

async function fixture(t: { after: (fn: () => Promise<void>) => void }) {
  const project = await makeProject("server-hostile-script-");
  t.after(() => project.store.close());
  const outsideDir = await testTempDir("server-hostile-outside-");
  const outside = join(outsideDir, "shadow");
  await writeFile(outside, OUTSIDE_CONTENT);
  const { app } = testApp(project.store, project.root);
  const post = (script: unknown) =>
    app.request("/api/runs", { method: "POST", body: JSON.stringify({ task: "Play it", agent: "fake", script }), headers: { ...AUTH, "content-type": "application/json" } });
  return { ...project, outside, outsideDir, post };
}

/** The arguments the stand-in CLI was started with, from the run it logs them in (right after `run.started`). */
async function cliArgs(project: { store: { readRun(id: string): AsyncIterable<Envelope> } }, response: Response): Promise<string[]> {
  const { run } = (await response.json()) as { run: { id: string } };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for await (const event of project.store.readRun(run.id)) {
      if (event.type === "log") return JSON.parse(String(event.data["message"])) as string[];
    }
    await setTimeout(20);
  }
  throw new Error("the stand-in CLI logged no arguments");
}

test("a script path outside the project is refused (400) whether or not it exists, quoting nothing of it, and no run starts", async (t) => {
  const { post, outside, outsideDir, store, root } = await fixture(t);
  for (const path of ["/etc/shadow", "/etc/passwd", outside, join(outsideDir, "missing.json"), "../outside.json", "sub/../../shadow", `${root}/../shadow`, "/"]) {
    const response = await post(path);
    const text = await response.text();
    assert.equal(response.status, 400, `${path}: ${text}`);
    assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, "bad_request");
    assert.ok(!text.includes("outside-the-project-hash") && !text.includes("root:"), `${path}: the answer quotes no file`);
  }
  assert.deepEqual(await store.listRuns(), [], "no run was started");
});

test("a symbolic link in the project that leads outside it, a folder, or a missing file is refused the same way", async (t) => {
  const { post, outside, root, store } = await fixture(t);
  await symlink(outside, join(root, "steps.json"));
  await mkdir(join(root, "inner"));
  await symlink(join(root, ".."), join(root, "inner", "up"));
  for (const path of ["steps.json", "inner", "inner/up/shadow", "missing.json"]) {
    const response = await post(path);
    const text = await response.text();
    assert.equal(response.status, 400, `${path}: ${text}`);
    assert.ok(!text.includes("outside-the-project-hash"), path);
  }
  assert.deepEqual(await store.listRuns(), []);
});

test("a script file in the project reaches the CLI by its real path", async (t) => {
  const project = await fixture(t);
  await mkdir(join(project.root, "scripts"));
  await writeFile(join(project.root, "scripts", "steps.json"), '[{"say": "hi"}]\n');
  await symlink("scripts/steps.json", join(project.root, "linked.json"));
  for (const path of ["scripts/steps.json", join(project.root, "scripts", "steps.json"), "linked.json"]) {
    const response = await project.post(path);
    assert.equal(response.status, 201, path);
    const args = await cliArgs(project, response);
    assert.equal(args[args.indexOf("--script") + 1], join(project.root, "scripts", "steps.json"), path);
  }
});

test("the steps sent as the script itself are written for the run, owner-only, and only they reach the CLI", async (t) => {
  const project = await fixture(t);
  for (const steps of [[{ say: "hi" }, { run: "cat /etc/shadow" }], { turns: [[{ say: "one" }], [{ say: "two" }]] }]) {
    const response = await project.post(steps);
    assert.equal(response.status, 201);
    const args = await cliArgs(project, response);
    const file = args[args.indexOf("--script") + 1] as string;
    assert.ok(file.startsWith(join(project.batonDir, "serve", "starts")), file);
    assert.deepEqual(JSON.parse(await readFile(file, "utf8")), steps);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  }
});

test("a script that is neither a path nor steps is a 400 naming both forms", async (t) => {
  const { post, store } = await fixture(t);
  for (const script of [42, true, null, "", "   ", "a\u0000b", "x".repeat(5000)]) {
    const response = await post(script);
    assert.equal(response.status, 400, JSON.stringify(script));
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /JSON array of steps.*path of a file in the project/);
  }
  assert.deepEqual(await store.listRuns(), []);
});
