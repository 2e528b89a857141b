import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { GitHubTwin } from "./github-twin.ts";

const exec = promisify(execFile);
const TOKEN = "ghp_twin";

async function post(twin: GitHubTwin, path: string, body: unknown, token = TOKEN): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${twin.url}${path}`, { method: "POST", headers: { authorization: `token ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

test("the GitHub twin opens a pull request for a head pushed to its remote, with GitHub's 401, 404 and 422 answers otherwise", async () => {
  const remote = await mkdtemp(join(tmpdir(), "github-twin-"));
  await exec("git", ["init", "-q", "--bare", "-b", "main", remote]);
  const work = await mkdtemp(join(tmpdir(), "github-twin-work-"));
  await exec("git", ["init", "-q", "-b", "main", work]);
  const env = { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@baton.invalid", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@baton.invalid" };
  await exec("git", ["-C", work, "commit", "-q", "--allow-empty", "-m", "one"], { env });
  await exec("git", ["-C", work, "push", "-q", remote, "main", "main:feature"]);
  await using twin = await GitHubTwin.start({ token: TOKEN, repos: ["acme/app"], remotePath: remote });

  assert.equal((await post(twin, "/repos/acme/app/pulls", { title: "t", head: "feature", base: "main" }, "wrong")).status, 401);
  assert.equal((await post(twin, "/repos/acme/other/pulls", { title: "t", head: "feature", base: "main" })).status, 404);
  const missing = await post(twin, "/repos/acme/app/pulls", { head: "feature", base: "main" });
  assert.deepEqual([missing.status, (missing.body["errors"] as Array<{ field: string }>)[0]?.field], [422, "title"]);
  const notPushed = await post(twin, "/repos/acme/app/pulls", { title: "t", head: "nope", base: "main" });
  assert.deepEqual([notPushed.status, (notPushed.body["errors"] as Array<{ field: string }>)[0]?.field], [422, "head"]);

  const created = await post(twin, "/repos/acme/app/pulls", { title: "Add it", body: "b", head: "feature", base: "main", draft: true });
  assert.equal(created.status, 201);
  assert.deepEqual([created.body["number"], created.body["draft"], (created.body["head"] as { ref: string }).ref], [1, true, "feature"]);
  assert.equal(twin.pulls[0]?.head_sha, (await exec("git", ["-C", remote, "rev-parse", "feature"])).stdout.trim());
  const again = await post(twin, "/repos/acme/app/pulls", { title: "Add it", head: "feature", base: "main" });
  assert.match(String((again.body["errors"] as Array<{ message: string }>)[0]?.message), /A pull request already exists for acme:feature/);
  assert.ok(twin.requests.every((request) => request.headers["authorization"] === "[token]"), "the twin keeps no token");
});

test("scripted faults: a 403 once, then the rate limit's 403 with its reset, then normal again", async () => {
  await using twin = await GitHubTwin.start({ token: TOKEN, repos: ["acme/app"] });
  twin.fail({ kind: "status", status: 403, message: "Resource not accessible by integration", times: 1 });
  twin.fail({ kind: "rate_limited", resetInSeconds: 60, times: 1 });
  const pull = { title: "t", head: "feature", base: "main" };
  const forbidden = await post(twin, "/repos/acme/app/pulls", pull);
  assert.deepEqual([forbidden.status, forbidden.body["message"]], [403, "Resource not accessible by integration"]);
  const limited = await post(twin, "/repos/acme/app/pulls", pull);
  assert.equal(limited.status, 403);
  assert.equal(limited.headers.get("x-ratelimit-remaining"), "0");
  assert.ok(Number(limited.headers.get("x-ratelimit-reset")) > Date.now() / 1000);
  assert.equal((await post(twin, "/repos/acme/app/pulls", pull)).status, 201, "without a remote, any head goes");
});
