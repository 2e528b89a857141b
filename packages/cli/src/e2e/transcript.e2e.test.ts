import assert from "node:assert/strict";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { linesOf, makeRepo, runBaton, runIds, runsDir, writeScript } from "./cli-harness.ts";

test("a run leaves transcript.md and summary.md, appends the summary to $GITHUB_STEP_SUMMARY, and baton transcript renders it", async () => {
  const repo = await makeRepo("cli-transcript-");
  const stepSummary = join(await mkdtemp(join(tmpdir(), "baton-step-summary-")), "summary.md");
  await writeFile(stepSummary, "# earlier step\n");
  const script = await writeScript(repo, "t.json", [
    { think: "I should <b>look</b> first" },
    { say: "Writing ![x](https://evil.example/p.png) now" },
    { write: { path: "a.txt", content: "<script>alert(1)</script>\n" } },
    { run: "echo hello-from-the-tool" },
    { usage: { input_tokens: 120, output_tokens: 30, cost_usd: 0.02 } },
    { say: "Done." },
  ]);
  const result = await runBaton(repo, ["run", "Write a.txt", "--agent", "fake", "--script", script, "--timeout", "5m"], { env: { GITHUB_STEP_SUMMARY: stepSummary } });
  assert.equal(result.code, 0, result.stderr);
  const [runId] = await runIds(repo);
  const dir = join(runsDir(repo), runId as string);

  const transcript = await readFile(join(dir, "transcript.md"), "utf8");
  // Foreign text is escaped as Markdown text: it reads as written and renders as nothing else.
  for (const expected of [
    "# Baton run 1\\: Write a\\.txt\n",
    "### Turn 1\\: task\n",
    "<details><summary>Reasoning</summary>\n\nI should \\<b\\>look\\<\\/b\\> first\n\n</details>",
    "Writing \\!\\[x\\]\\(https\\:\u200b\\/\\/evil\\.example\\/p\\.png\\) now",
    "<pre>\nhello-from-the-tool\n\n</pre>",
    "+&lt;script&gt;alert(1)&lt;/script&gt;",
    "120 tokens in\\, 30 out · \\$0\\.0200",
    "**Status\\:** succeeded",
  ]) {
    assert.ok(transcript.includes(expected), `the transcript has ${JSON.stringify(expected)}`);
  }
  assert.match(transcript, /\*\*Commit\*\* [0-9a-f]{12}\\: Write a\\.txt/);

  const summary = await readFile(join(dir, "summary.md"), "utf8");
  assert.match(summary, /Complete transcript\\:\*\* \\\.baton\\\/runs\\\/run\\_[0-9A-Z]+\\\/transcript\\\.md/);
  assert.equal(await readFile(stepSummary, "utf8"), `# earlier step\n${summary}\n`);

  const printed = await runBaton(repo, ["transcript", "1"]);
  assert.equal(printed.code, 0, printed.stderr);
  assert.equal(printed.stdout, transcript);

  const html = await runBaton(repo, ["transcript", runId as string, "--format", "html", "--out", "t.html"]);
  assert.equal(html.code, 0, html.stderr);
  assert.equal(html.stdout, "");
  const page = await readFile(join(repo, "t.html"), "utf8");
  assert.match(page, /^<!doctype html>/);
  assert.ok(page.includes("+&lt;script&gt;alert(1)&lt;/script&gt;") && page.includes("<pre>hello-from-the-tool\n</pre>"));

  const bounded = await runBaton(repo, ["transcript", "1", "--max-bytes", "5000"]);
  assert.equal(bounded.code, 0, bounded.stderr);
  assert.ok(Buffer.byteLength(bounded.stdout) <= 5000);
  assert.match(bounded.stdout, /Complete transcript\\:\*\* baton transcript 1/);
});

test("baton transcript refuses bad input in one line with exit 2", async () => {
  const repo = await makeRepo("cli-transcript-bad-");
  for (const args of [["transcript", "1", "--format", "pdf"], ["transcript", "1", "--max-bytes", "10"], ["transcript", "99"]]) {
    const result = await runBaton(repo, args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(linesOf(result.stderr).length, 1, result.stderr);
    assert.equal(result.stdout, "");
  }
});
