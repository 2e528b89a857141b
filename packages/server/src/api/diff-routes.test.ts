import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { AUTH, COMPLETED, beginRun, makeProject, testApp } from "../testing/server-fixtures.ts";
import type { RunDiff } from "./diff-routes.ts";

const execFileAsync = promisify(execFile);
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@baton.invalid", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@baton.invalid", GIT_CONFIG_NOSYSTEM: "1" };

test("GET /api/runs/{ref}/diff gives the run's commit against its base, by file; before a workspace, 409", async (t) => {
  const project = await makeProject("server-diff-");
  t.after(() => project.store.close());
  const git = async (...args: string[]) => (await execFileAsync("git", args, { cwd: project.root, env: GIT_ENV })).stdout.trim();
  await git("init", "-q", "-b", "main");
  await writeFile(join(project.root, ".gitignore"), ".baton/\n");
  await writeFile(join(project.root, "a.txt"), "one\ntwo\n");
  await git("add", ".");
  await git("commit", "-q", "-m", "base");
  const base = await git("rev-parse", "HEAD");
  await git("checkout", "-q", "-b", "baton/run-1");
  await writeFile(join(project.root, "a.txt"), "one\n2\n");
  await writeFile(join(project.root, "b.txt"), "new\n");
  await git("add", ".");
  await git("commit", "-q", "-m", "the run's work");
  const sha = await git("rev-parse", "HEAD");

  const { app } = testApp(project.store, project.root);
  const writer = await beginRun(project.store);
  const early = await app.request(`/api/runs/${writer.number}/diff`, { headers: AUTH });
  assert.equal(early.status, 409);
  assert.equal(((await early.json()) as { error: { code: string } }).error.code, "no_workspace");

  writer.append("workspace.ready", { path: project.root, kind: "worktree", branch: "baton/run-1", base_sha: base });
  writer.append("git.committed", { sha, branch: "baton/run-1", message: "the run's work", files: [{ path: "a.txt", change: "modified" }, { path: "b.txt", change: "added" }] });
  writer.append("run.completed", COMPLETED);
  await writer.close();
  const response = await app.request(`/api/runs/${writer.number}/diff`, { headers: AUTH });
  assert.equal(response.status, 200);
  const { diff } = (await response.json()) as { diff: RunDiff };
  assert.equal(diff.source, "commit");
  assert.equal(diff.commit, sha);
  assert.equal(diff.base_sha, base);
  assert.equal(diff.branch, "baton/run-1");
  assert.deepEqual(
    diff.files.map((file) => [file.path, file.change, file.added, file.removed]),
    [
      ["a.txt", "modified", 1, 1],
      ["b.txt", "added", 1, 0],
    ],
  );
  assert.match(diff.files[0]!.patch, /^@@ .* @@\n one\n-two\n\+2$/);
  assert.deepEqual([diff.added, diff.removed], [2, 1]);

  const unknown = await app.request("/api/runs/99/diff", { headers: AUTH });
  assert.equal(unknown.status, 404);
});

test("before a commit the diff is the workspace's working changes, untracked files included", async (t) => {
  const project = await makeProject("server-diff-workspace-");
  t.after(() => project.store.close());
  const git = async (...args: string[]) => (await execFileAsync("git", args, { cwd: project.root, env: GIT_ENV })).stdout.trim();
  await git("init", "-q", "-b", "main");
  await writeFile(join(project.root, ".gitignore"), ".baton/\n");
  await writeFile(join(project.root, "a.txt"), "one\n");
  await git("add", ".");
  await git("commit", "-q", "-m", "base");
  await writeFile(join(project.root, "a.txt"), "one\ntwo\n");
  await writeFile(join(project.root, "new file.txt"), "fresh\n");

  const { app } = testApp(project.store, project.root);
  const writer = await beginRun(project.store);
  writer.append("workspace.ready", { path: project.root, kind: "in_place" });
  await writer.flush();
  const response = await app.request(`/api/runs/${writer.number}/diff`, { headers: AUTH });
  assert.equal(response.status, 200);
  const { diff } = (await response.json()) as { diff: RunDiff };
  assert.equal(diff.source, "workspace");
  assert.deepEqual(
    diff.files.map((file) => [file.path, file.change, file.added, file.removed]),
    [
      ["a.txt", "modified", 1, 0],
      ["new file.txt", "added", 1, 0],
    ],
  );
  writer.append("run.completed", COMPLETED);
  await writer.close();
});
