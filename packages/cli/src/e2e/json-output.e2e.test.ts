import assert from "node:assert/strict";
import { test } from "node:test";
import { makeRepo, runBaton, writeScript } from "./cli-harness.ts";

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** Every line of `stdout` is one JSON object; returns them. */
function ndjsonObjects(command: string, stdout: string): Array<Record<string, unknown>> {
  assert.ok(stdout.endsWith("\n"), `${command}: the last line ends`);
  const lines = stdout.slice(0, -1).split("\n");
  return lines.map((line, index) => {
    assert.doesNotThrow(() => JSON.parse(line), `${command}: line ${index + 1} is JSON on its own`);
    const value = JSON.parse(line) as unknown;
    assert.ok(typeof value === "object" && value !== null && !Array.isArray(value), `${command}: line ${index + 1} is an object`);
    return value as Record<string, unknown>;
  });
}

/** The keys of an object and of every object within it, arrays included. */
function keysDeep(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) keysDeep(item, out);
  else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      out.push(key);
      keysDeep(inner, out);
    }
  }
  return out;
}

function assertSnakeCase(command: string, keys: readonly string[]): void {
  assert.deepEqual([...new Set(keys.filter((key) => !SNAKE.test(key)))], [], `${command}: every key is snake_case`);
}

test("every --json output is NDJSON: one JSON object per line, keys in snake_case (run, events, runs, show, agents)", async () => {
  const repo = await makeRepo("cli-json-");
  const script = await writeScript(repo, "s.json", [{ say: "hello" }, { write: { path: "a.txt", content: "a\n" } }, { run: "echo done" }]);
  const outputs: Record<string, string> = {};
  for (const args of [["run", "Write a", "--script", script, "--json"], ["events", "1", "--json"], ["events", "--json"], ["runs", "--json"], ["show", "1", "--json"], ["agents", "--json"]]) {
    const result = await runBaton(repo, args);
    assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
    outputs[args.join(" ")] = result.stdout;
  }

  for (const command of ["run Write a --script " + script + " --json", "events 1 --json", "events --json"]) {
    const envelopes = ndjsonObjects(command, outputs[command] ?? "");
    assert.ok(envelopes.length > 5, `${command}: the run's events`);
    // Envelope and data keys are the catalog's; what agents put in a tool call's input is theirs.
    assertSnakeCase(command, envelopes.flatMap((envelope) => [...Object.keys(envelope), ...Object.keys((envelope["data"] as object | undefined) ?? {})]));
  }
  const runs = ndjsonObjects("runs --json", outputs["runs --json"] ?? "");
  assert.deepEqual(
    runs.map((run) => [run["number"], run["status"]]),
    [[1, "succeeded"]],
  );
  assertSnakeCase("runs --json", keysDeep(runs));
  const shown = ndjsonObjects("show 1 --json", outputs["show 1 --json"] ?? "");
  assert.equal(shown.length, 1, "show: one object, on one line");
  assertSnakeCase("show 1 --json", keysDeep(shown));
  const agents = ndjsonObjects("agents --json", outputs["agents --json"] ?? "");
  assert.ok(agents.some((agent) => agent["name"] === "fake" && agent["installed"] === true), "agents: one object per agent");
  assert.equal(new Set(agents.map((agent) => agent["name"])).size, agents.length);
  assertSnakeCase("agents --json", keysDeep(agents));
});
