import assert from "node:assert/strict";
import { test } from "node:test";
import { initialRunState } from "@baton/protocol/core";
import { githubRepoOf } from "./github-repo.ts";
import { githubToken } from "./deliver-pull-request.ts";
import { pullRequestBody, pullRequestTitle } from "./pull-request-body.ts";

test("the GitHub repository is read from a remote's https, scp-like and ssh URL; a path is none", () => {
  assert.equal(githubRepoOf("https://github.com/acme/app.git"), "acme/app");
  assert.equal(githubRepoOf("https://x-access-token@github.com/acme/app"), "acme/app");
  assert.equal(githubRepoOf("git@github.com:acme/my.app.git"), "acme/my.app");
  assert.equal(githubRepoOf("ssh://git@ghe.example:2222/acme/app.git"), "acme/app");
  assert.equal(githubRepoOf("/srv/git/app.git"), undefined);
  assert.equal(githubRepoOf("https://github.com/acme"), undefined);
});

test("the token comes from GITHUB_TOKEN, else GH_TOKEN; a blank one is none", () => {
  assert.equal(githubToken({ GITHUB_TOKEN: "a", GH_TOKEN: "b" }), "a");
  assert.equal(githubToken({ GITHUB_TOKEN: " ", GH_TOKEN: "b" }), "b");
  assert.equal(githubToken({}), undefined);
});

test("the title is the task's first line, bounded; the body tells what changed, validation, usage and cost, and how to reproduce", () => {
  assert.equal(pullRequestTitle("\n  Fix the date parser  \nand more"), "Fix the date parser");
  assert.equal(pullRequestTitle("x".repeat(300)).length, 200);
  const state = { ...initialRunState(), agent: "claude", model: "sonnet", cost_usd: 0.1234, usage: { input_tokens: 1200, output_tokens: 300, cache_read_tokens: 0, cache_write_tokens: 0 } };
  const body = pullRequestBody({
    runId: "run_1",
    number: 4,
    task: "Fix the date parser",
    branch: "baton/4-fix",
    base: "main",
    remote: "origin",
    diffStat: " src/date.ts | 3 ++-\n 1 file changed",
    commits: "abc1234 Fix the date parser",
    state,
    validation: [
      { command: "npm test", passed: true, round: 1 },
      { command: "npm run lint", passed: true, round: 0 },
    ],
  });
  assert.match(body, /^Fix the date parser\n\n## What changed\n\n```\nsrc\/date\.ts \| 3 \+\+-\n 1 file changed\n```\n\n- abc1234 Fix the date parser\n/);
  assert.match(body, /- ✅ `npm test` \(after 1 fix round\)\n- ✅ `npm run lint`\n/);
  assert.match(body, /- agent: claude \(sonnet\)\n- tokens: 1200 in, 300 out\n- cost: \$0\.1234/);
  assert.match(body, /git fetch origin baton\/4-fix && git checkout baton\/4-fix\nbaton show 4 .*\nbaton run 'Fix the date parser'\n/);
  assert.doesNotMatch(body, /## Stages/, "a single run has no stages section");
});
