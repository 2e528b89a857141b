import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { eventsOfType, linesOf, makeRepo, runBaton, runsDir, writeScript } from "./cli-harness.ts";

type Data = Record<string, unknown>;

test("a tool call's whole output is in the trace store, capped with a marker, or in its event when the preview holds it; baton trace prints either", async () => {
  const repo = await makeRepo("cli-trace-");
  const configPath = join(repo, ".baton", "config.toml");
  await writeFile(configPath, (await readFile(configPath, "utf8")).replace("max_output_chars = 100000", "max_output_chars = 5000"));
  const script = await writeScript(repo, "trace.json", [
    { write: { path: "notes.txt", content: "one\ntwo\nthree\n" } },
    { write: { path: "notes.txt", content: "one\n2\nthree\n" } },
    { run: "seq 1 3000" },
    { run: "echo short" },
  ]);

  const result = await runBaton(repo, ["run", "Trace it", "--agent", "fake", "--script", script, "--json"]);

  assert.equal(result.code, 0, result.stderr);
  const events = linesOf(result.stdout).map((line) => JSON.parse(line) as Envelope);
  const runId = events[0]?.run as string;
  const completed = eventsOfType<Data>(events, "tool.completed").map((event) => event.data);
  const calls = eventsOfType(events, "tool.started").map((event) => String(event.data["call"]));
  assert.equal(completed.length, 4);
  const stored = async (data: Data) => readFile(join(runsDir(repo), runId, String(data["output_file"])), "utf8");

  // A write is traced as a unified diff made from the old and new text; shorter than a preview,
  // it is all in the event (output_chars is the preview's length) and no file repeats it.
  const edit = completed[1] as Data;
  assert.equal(edit["preview"], "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three");
  assert.equal(edit["output_chars"], String(edit["preview"]).length);
  for (const short of [completed[0], edit, completed[3]] as Data[]) assert.equal(short["output_file"], undefined);
  const outputs = await readdir(join(runsDir(repo), runId, "outputs"));
  assert.equal(outputs.length, 1, `only the long output has a file: ${outputs.join(", ")}`);

  // A long output: output_chars is its whole length, the file is cut at the cap with a marker line,
  // the preview is its first 200 characters.
  const seq = Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join("");
  const long = completed[2] as Data;
  assert.match(String(long["output_file"]), /^outputs\/[A-Za-z0-9._-]+\.txt$/, "relative to the run's folder");
  assert.equal(long["output_chars"], seq.length);
  assert.equal(long["preview"], seq.slice(0, 200));
  const longText = await stored(long);
  assert.ok(longText.startsWith(seq.slice(0, 5000)));
  assert.match(longText, new RegExp(`\\n\\[baton: output cut at 5000 of ${seq.length} characters; raise \\[trace\\] max_output_chars to keep more\\]\\n$`));

  const printedEdit = await runBaton(repo, ["trace", "1", calls[1] as string]);
  assert.equal(printedEdit.stdout, `${String(edit["preview"])}\n`);
  const printed = await runBaton(repo, ["trace", "1", calls[3] as string]);
  assert.equal(printed.code, 0, printed.stderr);
  assert.equal(printed.stdout, "short\n");
  const printedLong = await runBaton(repo, ["trace", runId, calls[2] as string]);
  assert.equal(printedLong.stdout, longText);

  const unknown = await runBaton(repo, ["trace", "1", "no-such-call"]);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stdout, "");
  assert.equal(linesOf(unknown.stderr).length, 1);
  assert.match(unknown.stderr, new RegExp(`^baton: run 1 has no tool call "no-such-call": its tool calls: ${calls.join(", ")}\\n$`));

  const badRun = await runBaton(repo, ["trace", "99", calls[0] as string]);
  assert.equal(badRun.code, 2);
  assert.equal(linesOf(badRun.stderr).length, 1);
  assert.match(badRun.stderr, /^baton: .*99/);
});

test("an output the fake agent cut: output_chars is what it sent, and the trace ends with its line giving the whole length", async () => {
  const repo = await makeRepo("cli-trace-agent-cut-");
  const script = await writeScript(repo, "flood.json", [{ run: "head -c 1000000 /dev/zero | tr '\\0' a" }]);

  const result = await runBaton(repo, ["run", "Print a lot", "--agent", "fake", "--script", script, "--json", "--require-output", "none"]);

  assert.equal(result.code, 0, result.stderr);
  const events = linesOf(result.stdout).map((line) => JSON.parse(line) as Envelope);
  const completed = eventsOfType<Data>(events, "tool.completed")[0]?.data as Data;
  const agentLine = "[fake agent: output cut at 65536 of 1000000 characters]";
  const text = await readFile(join(runsDir(repo), String(events[0]?.run), String(completed["output_file"])), "utf8");
  assert.equal(text.length, 65_536 + 1 + agentLine.length, "under Baton's own cap, the trace holds all the agent sent");
  assert.ok(text.endsWith(`\n${agentLine}`), "the agent's cut shows, with the whole length");
  assert.equal(completed["output_chars"], text.length, "output_chars counts what the agent sent, its cut line included");
});
