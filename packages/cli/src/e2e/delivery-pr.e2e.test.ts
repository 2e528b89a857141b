import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { GitHubTwin } from "@baton/testkit/github-twin";
import { cliEnv, eventsOfType, git, makeRepo, readEvents, readEventsText, runBaton, runIds, writeScript } from "./cli-harness.ts";
import { workflowProject } from "./workflow-harness.ts";

const TOKEN = "ghp_twinTokenThatMustNeverBeLogged0123456789";

/** A project whose `origin` is a bare repository on disk, and a GitHub twin that sees its branches. */
async function prProject(prefix: string, extraConfig = ""): Promise<{ repo: string; bare: string; twin: GitHubTwin; script: string }> {
  const repo = await makeRepo(prefix);
  const bare = await testTempDir(`${prefix}remote-`);
  await git(bare, "init", "-q", "--bare", "-b", "main");
  await git(repo, "remote", "add", "origin", bare);
  await git(repo, "push", "-q", "origin", "main");
  const twin = await GitHubTwin.start({ token: TOKEN, repos: ["acme/app"], remotePath: bare });
  await writeConfig(repo, twin, extraConfig);
  const script = await writeScript(repo, "work.json", [{ write: { path: "work.txt", content: "work\n" } }]);
  return { repo, bare, twin, script };
}

async function writeConfig(repo: string, twin: GitHubTwin, extra: string): Promise<void> {
  await writeFile(join(repo, ".baton", "config.toml"), `[delivery]\ngithub_api_url = "${twin.url}"\ngithub_repo = "acme/app"\n${extra}\n`);
}

const withToken = { env: cliEnv({ GITHUB_TOKEN: TOKEN }) };

test("baton run --pr pushes the run's branch to the remote and opens a pull request whose body tells the run; the token is in no log", async () => {
  const { repo, bare, twin, script } = await prProject("cli-pr-run-");
  await using _twin = twin;
  const run = await runBaton(repo, ["run", "Add the work\n\nWith a longer description.", "--script", script, "--pr", "--validate", "test -f work.txt"], withToken);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const runId = (await runIds(repo))[0] as string;
  const events = await readEvents(repo, runId);
  const pushed = eventsOfType(events, "git.pushed")[0]?.data;
  const created = eventsOfType(events, "pull_request.created")[0]?.data;
  assert.equal(pushed?.["remote"], "origin");
  const branch = String(pushed?.["branch"]);
  assert.match(branch, /^baton\/1-add-the-work/);
  assert.equal((await git(bare, "rev-parse", `refs/heads/${branch}`)).trim(), pushed?.["sha"]);
  assert.deepEqual(
    { number: created?.["number"], draft: created?.["draft"], head_sha: created?.["head_sha"], repo: created?.["repo"] },
    { number: 1, draft: false, head_sha: pushed?.["sha"], repo: "acme/app" },
  );
  const pull = twin.pulls[0];
  assert.equal(created?.["url"], pull?.html_url);
  assert.match(run.stdout, /⇡ pushed baton\/1-add-the-work\S* to origin[\s\S]*⇡ pull request #1: http:\/\/127\.0\.0\.1:\d+\/acme\/app\/pull\/1/);
  assert.deepEqual({ title: pull?.title, head: pull?.head, base: pull?.base }, { title: "Add the work", head: branch, base: "main" });
  assert.match(pull?.body ?? "", /## What changed[\s\S]*work\.txt[\s\S]*## Validation\n\n- ✅ `test -f work\.txt`[\s\S]*## Usage and cost[\s\S]*## How to reproduce[\s\S]*git fetch origin baton\/1-add-the-work/);
  assert.match(pull?.body ?? "", /With a longer description\./);
  assert.ok(twin.requests.every((request) => request.authorized), "every API call carried the token");
  const log = await readEventsText(repo, runId);
  assert.ok(!log.includes(TOKEN) && !run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN), "the token is in no log and no output");
  const shown = await runBaton(repo, ["show", "1"]);
  assert.match(shown.stdout, /delivered: pull request #1 into main: http:\/\/127\.0\.0\.1:\d+\/acme\/app\/pull\/1/);
});

test("--pr without a token is refused before the run, one line, exit 2; so is --pr with --merge", async () => {
  const { repo, twin, script } = await prProject("cli-pr-notoken-");
  await using _twin = twin;
  const refused = await runBaton(repo, ["run", "Add the work", "--script", script, "--pr"]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--pr opens a pull request on GitHub, and neither GITHUB_TOKEN nor GH_TOKEN is set.*export GITHUB_TOKEN/);
  assert.equal(refused.stderr.trim().split("\n").length, 1);
  assert.deepEqual(await runIds(repo), [], "no run was made");
  const both = await runBaton(repo, ["run", "Add the work", "--script", script, "--pr", "--merge"], withToken);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--merge and --pr contradict each other/);
  const draft = await runBaton(repo, ["run", "Add the work", "--script", script, "--draft"], withToken);
  assert.equal(draft.code, 2);
  assert.match(draft.stderr, /--draft is for a pull request, and this run opens none: add --pr/);
  assert.equal(twin.requests.length, 0);
});

test("a 422 from GitHub fails the run's delivery with the reason, its branch pushed and intact; baton pr RUN then opens it; a second is GitHub's 422 'already exists'", async () => {
  const { repo, twin, script } = await prProject("cli-pr-422-", 'mode = "pull_request"\ndraft = true');
  await using _twin = twin;
  twin.fail({ kind: "status", status: 422, message: "Validation Failed", times: 1 });
  const run = await runBaton(repo, ["run", "Add the work", "--script", script], withToken);
  assert.equal(run.code, 1, run.stdout);
  const runId = (await runIds(repo))[0] as string;
  const failed = eventsOfType(await readEvents(repo, runId), "pull_request.failed")[0]?.data;
  assert.equal((failed?.["error"] as { code: string }).code, "pull_request_failed");
  assert.match((failed?.["error"] as { message: string }).message, /GitHub could not open the pull request \(422 Validation Failed\).*baton pr/);
  assert.equal(await git(repo, "show", "baton/1-add-the-work:work.txt"), "work\n", "the work is on its branch");

  const pr = await runBaton(repo, ["pr", "1"], withToken);
  assert.equal(pr.code, 0, pr.stderr + pr.stdout);
  assert.match(pr.stdout, /Opened a pull request for run 1 \(baton\/1-add-the-work into main\): http:\/\/127\.0\.0\.1:\d+\/acme\/app\/pull\/1/);
  assert.equal(twin.pulls[0]?.draft, true, "[delivery] draft");
  const deliver = (await runIds(repo)).at(-1) as string;
  const events = await readEvents(repo, deliver);
  assert.equal(eventsOfType(events, "run.created")[0]?.data["workflow"], "deliver");
  assert.equal(eventsOfType(events, "pull_request.created")[0]?.stage?.id, "pull_request");
  assert.equal(events.at(-1)?.type, "run.completed");

  const again = await runBaton(repo, ["pr", "1"], withToken);
  assert.equal(again.code, 1);
  assert.match(again.stdout, /No pull request: GitHub could not open the pull request \(422 Validation Failed: A pull request already exists for acme:baton\/1-add-the-work\.\)/);
});

test("baton pr: a missing token, a 403, the rate limit and a refused push are each a clear line, and the work stays", async () => {
  const { repo, bare, twin, script } = await prProject("cli-pr-bad-");
  await using _twin = twin;
  const run = await runBaton(repo, ["run", "Add the work", "--script", script]);
  assert.equal(run.code, 0, run.stderr);
  const noToken = await runBaton(repo, ["pr", "1"]);
  assert.equal(noToken.code, 2);
  assert.match(noToken.stderr, /neither GITHUB_TOKEN nor GH_TOKEN is set: run 1 is not delivered/);

  twin.fail({ kind: "status", status: 403, message: "Resource not accessible by integration", times: 1 });
  const forbidden = await runBaton(repo, ["pr", "1"], { env: cliEnv({ GH_TOKEN: TOKEN }) });
  assert.equal(forbidden.code, 1);
  assert.match(forbidden.stdout, /No pull request: GitHub refused to open a pull request in acme\/app \(403 Resource not accessible by integration\): the token needs write access/);

  twin.fail({ kind: "rate_limited", resetInSeconds: 600, times: 1 });
  const limited = await runBaton(repo, ["pr", "1"], withToken);
  assert.equal(limited.code, 1);
  assert.match(limited.stdout, /No pull request: GitHub's API rate limit is used up until \d{4}-\d\d-\d\dT[\d:.]+Z/);

  const badToken = await runBaton(repo, ["pr", "1"], { env: cliEnv({ GITHUB_TOKEN: "not-the-token" }) });
  assert.match(badToken.stdout, /GitHub refused the token \(401 Bad credentials\)/);

  // The remote moved the branch on: a push without force is refused, and nothing is lost.
  const clone = await testTempDir("cli-pr-bad-clone-");
  await git(clone, "clone", "-q", bare, ".");
  await git(clone, "checkout", "-q", "-B", "baton/1-add-the-work");
  await writeFile(join(clone, "other.txt"), "other\n");
  await git(clone, "add", "other.txt");
  await git(clone, "commit", "-q", "-m", "other");
  await git(clone, "push", "-q", "-f", "origin", "baton/1-add-the-work");
  const refused = await runBaton(repo, ["pr", "1"], withToken);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout, /No pull request: origin refused the push of baton\/1-add-the-work: rejected \((?:non-fast-forward|fetch first)\)/);
  const noRemote = await runBaton(repo, ["pr", "1", "--remote", "upstream"], withToken);
  assert.match(noRemote.stdout, /the repository has no remote named upstream/);
  assert.equal(await git(repo, "show", "baton/1-add-the-work:work.txt"), "work\n");
  assert.equal(twin.pulls.length, 0);
  assert.equal(await readFile(join(repo, "README.md"), "utf8"), "# sample\n");
});

test("a pull_request stage behind a gate opens a draft pull request for the workflow's branch", async () => {
  const { repo, script } = await workflowProject(
    "ship",
    `digraph ship {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  build [prompt="Build it"]
  check [type=validate, script="test -f built.txt"]
  open [type=pull_request, draft=true]
  start -> build -> check -> open -> exit
}
`,
    { build: [{ write: { path: "built.txt", content: "built\n" } }] },
  );
  const bare = await testTempDir("cli-pr-stage-remote-");
  await git(bare, "init", "-q", "--bare", "-b", "main");
  await git(repo, "remote", "add", "origin", bare);
  await git(repo, "push", "-q", "origin", "main");
  await using twin = await GitHubTwin.start({ token: TOKEN, repos: ["acme/app"], remotePath: bare });
  await writeConfig(repo, twin, "");
  const run = await runBaton(repo, ["run", "Build it", "--workflow", "ship", "--script", script, "--yes", "--timeout", "5m"], withToken);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const created = eventsOfType(await readEvents(repo, (await runIds(repo))[0] as string), "pull_request.created")[0];
  assert.equal(created?.stage?.id, "open");
  assert.equal(twin.pulls[0]?.draft, true);
  assert.match(twin.pulls[0]?.body ?? "", /## Stages \(ship\)\n\n- build: succeeded\n- check: succeeded[\s\S]*- ✅ `test -f built\.txt`/);
});
