import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { REDACTED } from "@baton/engine";
import { outputInEvent } from "@baton/protocol/core";
import {
  cliEnv,
  eventsOfType,
  eventsFile,
  makeRepo,
  onlyRunId,
  readEvents,
  readTranscript,
  readTranscriptText,
  runBaton,
  runsDir,
  sessionUpdates,
  startBaton,
  waitForAgentGroup,
  killGroup,
  workspacePath,
  writeScript,
} from "./cli-harness.ts";

/** 20 random letters and digits: nothing a shell, JSON or a chunker would treat specially. */
function randomSecret(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length: 20 }, () => alphabet[randomInt(alphabet.length)]).join("");
}

test("a secret from the environment appears nowhere in events.jsonl or acp.jsonl, and never reaches the agent", async () => {
  const secret = randomSecret();
  const said = `The token is ${secret} and nothing else.`;
  const repo = await makeRepo("cli-secrets-");
  const script = await writeScript(repo, "secret.json", [
    { say: said },
    { write: { path: "config/token.txt", content: `token=${secret}\n` } },
    { run: `echo ${secret}` },
    { run: "env" },
    { run: 'test -z "${MY_API_TOKEN+set}" && echo token-absent' },
    { say: "Done." },
  ]);

  const result = await runBaton(repo, ["run", "Leak nothing", "--agent", "fake", "--script", script, "--json"], { env: cliEnv({ MY_API_TOKEN: secret }) });

  assert.equal(result.code, 0, result.stderr);
  const runId = await onlyRunId(repo);
  const eventsBytes = await readFile(eventsFile(repo, runId), "utf8");
  const transcriptBytes = await readTranscriptText(repo, runId);
  assert.ok(!eventsBytes.includes(secret), "events.jsonl does not hold the secret");
  assert.ok(!transcriptBytes.includes(secret), "acp.jsonl does not hold the secret");
  assert.ok(!result.stdout.includes(secret), "--json output does not hold the secret");
  assert.ok(eventsBytes.includes(REDACTED));
  assert.ok(transcriptBytes.includes(REDACTED));
  // The agent really worked with the value (in its worktree): only the records are scrubbed.
  assert.equal(await readFile(join(await workspacePath(repo, runId), "config", "token.txt"), "utf8"), `token=${secret}\n`);
  // The trace store keeps whole outputs, redacted the same way; an output that fits its event's
  // preview (redacted as it came from the agent) is kept there alone.
  const outputsDir = join(runsDir(repo), runId, "outputs");
  const outputs = await Promise.all((await readdir(outputsDir)).map((name) => readFile(join(outputsDir, name), "utf8")));
  const completed = eventsOfType(await readEvents(repo, runId), "tool.completed").map((event) => event.data);
  const inEvents = completed.map((data) => outputInEvent(data)).filter((text) => text !== undefined);
  assert.equal(completed.length, 4);
  assert.equal(outputs.length + inEvents.length, 4, "every tool call's whole output is kept, in a file or in its event");
  assert.ok(outputs.length >= 1, "env's output is longer than a preview: it is in the trace store");
  assert.ok([...outputs, ...inEvents].every((text) => !text.includes(secret)), "no kept output holds the secret");
  assert.ok(inEvents.some((text) => text.includes(`token=${REDACTED}`)), "the write's diff is kept, redacted");

  // The message reached Baton split across chunks, no one of which holds the whole secret: the
  // case the stream redactor exists for. acp.jsonl keeps a record per chunk, each scrubbed of
  // the pieces of the secret at its ends: no four characters of the secret in a row remain.
  const chunks = sessionUpdates(await readTranscript(repo, runId))
    .filter((update) => update["sessionUpdate"] === "agent_message_chunk")
    .map((update) => String((update["content"] as { text?: unknown }).text));
  const firstMessage = chunks.slice(0, chunks.findIndex((chunk) => chunk.includes("nothing else.")) + 1);
  assert.ok(firstMessage.filter((chunk) => chunk.includes(REDACTED)).length >= 2, "the secret spans chunk records");
  const windows = Array.from({ length: secret.length - 3 }, (_, i) => secret.slice(i, i + 4));
  for (const chunk of chunks) assert.ok(!windows.some((piece) => chunk.includes(piece)), `no piece of the secret in ${JSON.stringify(chunk)}`);

  const events = await readEvents(repo, runId);
  assert.deepEqual(eventsOfType(events, "agent.message").map((event) => event.data["text"]), [`The token is ${REDACTED} and nothing else.`, "Done."]);
  const write = eventsOfType(events, "tool.started").find((event) => event.data["kind"] === "edit");
  assert.deepEqual(write?.data["input"], { path: "config/token.txt", content: `token=${REDACTED}\n` });
  const previews = eventsOfType(events, "tool.completed").map((event) => event.data["preview"]);
  assert.ok(previews.includes(`${REDACTED}\n`), "echo's output is redacted");

  // The agent's environment has no MY_API_TOKEN: `env` does not list it, and the shell sees it unset.
  const envOutput = sessionUpdates(await readTranscript(repo, runId))
    .map((update) => (update["rawOutput"] as { output?: unknown } | undefined)?.output)
    .find((output): output is string => typeof output === "string" && /^PATH=/m.test(output));
  assert.ok(envOutput !== undefined, "the output of `env` is in the transcript");
  assert.ok(!/^MY_API_TOKEN=/m.test(envOutput), "MY_API_TOKEN is not in the agent's environment");
  const probe = eventsOfType(events, "tool.completed").find((event) => event.data["preview"] === "token-absent\n");
  assert.equal(probe?.data["exit_code"], 0);
});

test("with secrets in the environment the live view still streams messages as they come, before they end", async (t) => {
  // An API key is typically longer than a message: holding back that much text hid the message
  // until it ended. Only text that could begin a secret may be held back.
  const apiKey = `sk-ant-${randomSecret()}${randomSecret()}${randomSecret()}${randomSecret()}${randomSecret()}`;
  const said = "I am looking at the failing test now, then I will fix it.";
  const repo = await makeRepo("cli-secrets-live-");
  const script = await writeScript(repo, "live.json", [{ say: said }, { sleep: 600_000 }, { say: "never said" }]);
  const run = startBaton(repo, ["run", "--agent", "fake", "--script", script], { env: cliEnv({ ANTHROPIC_API_KEY: apiKey, MY_API_TOKEN: randomSecret() }) });
  t.after(() => run.kill());
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));

  // The agent is asleep after the message: it has not ended, yet the whole text is shown.
  await run.waitForStdout("the whole message, while the agent sleeps", (stdout) => stdout.includes(said));
  run.child.kill("SIGINT");
  const result = await run.done;
  assert.equal(result.code, 130, result.stderr);
  assert.ok(!result.stdout.includes(apiKey));
});
