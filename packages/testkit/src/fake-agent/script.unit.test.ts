import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { loadScript, MAX_SCRIPT_BYTES, parseScript } from "./script.ts";
import { MAX_REPEAT_TIMES, stepNames } from "./step-schema.ts";

const everyStep = [
  { say: "hello" },
  { think: "hmm" },
  { plan: [{ content: "a", status: "pending" }, { content: "b", status: "completed", priority: "high" }] },
  { write: { path: "src/a.txt", content: "" } },
  { write_anywhere: { path: "../outside.txt", content: "x" } },
  { delete: "src/a.txt" },
  { move: { from: "src/a.txt", to: "src/b.txt" } },
  { run: "echo hi" },
  { usage: {} },
  { usage: { input_tokens: 1, output_tokens: 2, cost_usd: 0.01 } },
  { model_call: { parallel: 2, model: "claude-sonnet-4-5", prompt: "Say hi.", max_tokens: 64, tools: ["Write"], fail_on_error: false } },
  { sleep: 0 },
  { hang: 10 },
  { wait_for: "gates/go" },
  { wait_for_notice: "from a person" },
  { wait_for: "/tmp/elsewhere/go" },
  { flood: 3 },
  { stderr: "API Error: 529 overloaded" },
  { stderr: "" },
  { fail: { code: -32603, message: "boom" } },
  { fail: { code: -32603, message: "boom", data: { errorKind: "server_error" } } },
  { crash: 3 },
  { stop: "max_tokens" },
  { update: { sessionUpdate: "something_new", anything: [1, 2] } },
  { ask: { message: "Which?", schema: { type: "object", properties: { db: { type: "string" } }, required: ["db"] } } },
  { ask: { message: "Sign in", schema: { properties: {} }, mode: "url" } },
  { ext: { method: "_baton/ping" } },
  { ext: { method: "_baton/ping", params: { n: 1 } } },
  { repeat: { times: 3, steps: [{ run: "ls" }, { say: "again" }] } },
];

function parseError(value: unknown): string {
  try {
    parseScript(JSON.stringify(value), "t.json");
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail("expected the script to be rejected");
}

describe("parseScript", () => {
  test("accepts every step kind and plays a plain list as the first turn", () => {
    const script = parseScript(JSON.stringify(everyStep), "t.json");
    assert.deepEqual(script, { turns: [everyStep] });
    const kinds = new Set(everyStep.flatMap((step) => Object.keys(step)));
    assert.deepEqual([...kinds].sort(), [...stepNames].sort());
  });

  test("accepts the turns form, empty turns included", () => {
    const turns = [[{ say: "one" }], [], [{ stop: "refusal" }]];
    assert.deepEqual(parseScript(JSON.stringify({ turns }), "t.json"), { turns });
  });

  test("an unknown step names the source, the step (from 1) and the known steps", () => {
    assert.equal(
      parseError([{ say: "a" }, { say: "b" }, { wrte: {} }]),
      `script t.json: step 3: unknown step "wrte"; known steps: ${stepNames.join(", ")}`,
    );
  });

  test("a step with two keys is rejected", () => {
    assert.equal(parseError([{ say: "a", think: "b" }]), "script t.json: step 1: a step has exactly one key, found 2 (say, think)");
    assert.match(parseError([{}]), /^script t\.json: step 1: a step has exactly one key, found 0$/);
    assert.match(parseError(["say"]), /^script t\.json: step 1: expected an object with one key/);
  });

  test("wrong types name the step and the field", () => {
    assert.match(parseError([{ say: 3 }]), /^script t\.json: step 1: say: .*expected string/);
    assert.match(parseError([{ sleep: "1s" }]), /^script t\.json: step 1: sleep: .*expected number/);
    assert.match(parseError([{ say: "ok" }, { write: { path: "a" } }]), /^script t\.json: step 2: write\.content: /);
    assert.match(parseError([{ plan: [{ content: "x", status: "done" }] }]), /^script t\.json: step 1: plan\.0\.status: /);
    assert.match(parseError([{ stop: "tired" }]), /^script t\.json: step 1: stop: /);
    assert.match(parseError([{ crash: 300 }]), /^script t\.json: step 1: crash: /);
    assert.match(parseError([{ flood: 0 }]), /^script t\.json: step 1: flood: /);
    assert.match(parseError([{ usage: { tokens: 1 } }]), /^script t\.json: step 1: usage: .*tokens/);
    assert.match(parseError([{ model_call: { parallel: 0 } }]), /^script t\.json: step 1: model_call\.parallel: /);
    assert.match(parseError([{ update: { kind: "x" } }]), /^script t\.json: step 1: update\.sessionUpdate: /);
    assert.match(parseError([{ ext: { method: "ping" } }]), /^script t\.json: step 1: ext\.method: must start with "_"/);
    assert.match(parseError([{ ask: { message: "Which?" } }]), /^script t\.json: step 1: ask\.schema: /);
    assert.match(parseError([{ ask: { message: "Which?", schema: { properties: {} }, mode: "sms" } }]), /^script t\.json: step 1: ask\.mode: /);
  });

  test("a repeat takes 1 to 10000 times of at least one step, its steps checked like any step", () => {
    assert.deepEqual(parseScript(JSON.stringify([{ repeat: { times: MAX_REPEAT_TIMES, steps: [{ say: "x" }] } }]), "t.json").turns[0]?.length, 1);
    assert.match(parseError([{ repeat: { times: 0, steps: [{ say: "x" }] } }]), /^script t\.json: step 1: repeat\.times: Too small/);
    assert.match(parseError([{ repeat: { times: MAX_REPEAT_TIMES + 1, steps: [{ say: "x" }] } }]), /^script t\.json: step 1: repeat\.times: Too big/);
    assert.match(parseError([{ repeat: { times: 1.5, steps: [{ say: "x" }] } }]), /^script t\.json: step 1: repeat\.times: /);
    assert.match(parseError([{ repeat: { times: 2, steps: [] } }]), /^script t\.json: step 1: repeat\.steps: Too small/);
    assert.match(parseError([{ repeat: { times: 2 } }]), /^script t\.json: step 1: repeat\.steps: /);
    assert.match(parseError([{ repeat: { times: 2, steps: [{ say: "x" }], each: 1 } }]), /^script t\.json: step 1: repeat: .*each/);
    assert.equal(
      parseError([{ say: "a" }, { repeat: { times: 2, steps: [{ say: "b" }, { wrte: {} }] } }]),
      `script t.json: step 2: repeat step 2: unknown step "wrte"; known steps: ${stepNames.join(", ")}`,
    );
    assert.match(parseError([{ repeat: { times: 2, steps: [{ sleep: -1 }] } }]), /^script t\.json: step 1: repeat step 1: sleep: Too small/);
  });

  test("a repeat inside a repeat is refused", () => {
    assert.equal(
      parseError([{ repeat: { times: 2, steps: [{ say: "a" }, { repeat: { times: 2, steps: [{ say: "b" }] } }] } }]),
      "script t.json: step 1: repeat step 2: a repeat cannot hold another repeat; multiply the times instead",
    );
  });

  test("hang and sleep take milliseconds up to what a timer can wait; stderr takes text", () => {
    assert.match(parseError([{ hang: -1 }]), /^script t\.json: step 1: hang: Too small/);
    assert.match(parseError([{ hang: 2 ** 31 }]), /^script t\.json: step 1: hang: Too big/);
    assert.match(parseError([{ sleep: 2 ** 31 }]), /^script t\.json: step 1: sleep: Too big/);
    assert.match(parseError([{ stderr: 1 }]), /^script t\.json: step 1: stderr: .*expected string/);
  });

  test("wait_for takes a path, absolute or relative, and nothing else", () => {
    assert.match(parseError([{ wait_for: "" }]), /^script t\.json: step 1: wait_for: Too small/);
    assert.match(parseError([{ wait_for: 5 }]), /^script t\.json: step 1: wait_for: .*expected string/);
    assert.match(parseError([{ wait_for: { path: "go" } }]), /^script t\.json: step 1: wait_for: .*expected string/);
    assert.match(parseError([{ repeat: { times: 2, steps: [{ wait_for: "" }] } }]), /^script t\.json: step 1: repeat step 1: wait_for: Too small/);
  });

  test("a write outside the session's cwd is refused before anything runs", () => {
    assert.match(parseError([{ write: { path: "../x", content: "" } }]), /step 1: write\.path: must be a relative path/);
    assert.match(parseError([{ write: { path: "/etc/x", content: "" } }]), /step 1: write\.path: must be a relative path/);
  });

  test("errors in the turns form name the turn", () => {
    assert.equal(
      parseError({ turns: [[{ say: "a" }], [{ say: "b" }, { sleep: -1 }]] }),
      "script t.json: turn 2: step 2: sleep: Too small: expected number to be >=0",
    );
    assert.match(parseError({ turns: [{ say: "a" }] }), /^script t\.json: turn 1: expected an array of steps$/);
    assert.match(parseError({ turns: [], extra: 1 }), /unknown key "extra" at top level/);
    assert.match(parseError({ say: "a" }), /unknown key "say" at top level/);
    assert.match(parseError("hello"), /expected an array of steps or/);
  });

  test("messages are one line", () => {
    assert.doesNotMatch(parseError([{ plan: [] }]), /\n/);
    assert.throws(() => parseScript("[{", "t.json"), /^Error: script t\.json: not valid JSON \(at line 1, column 3\)$/);
  });

  test("a text that is not JSON is located by line and column, never quoted", () => {
    const cases: Array<[string, string]> = [
      ["root:x:0:0:hunter2-hunter2:/root:/bin/bash\n", "line 1, column 1"],
      ['[\n  {"say": "hi"},\n  {"say": hunter2}\n]', "line 3, column 11"],
      ['[{"say": "hi"},]', "line 1, column 16"],
      ['{"password": "hunter2-hunter2"', "line 1, column 31"],
      ["", "line 1, column 1"],
    ];
    for (const [text, where] of cases) {
      const message = (() => {
        try {
          parseScript(text, "t.json");
        } catch (error) {
          return (error as Error).message;
        }
        return "parsed";
      })();
      assert.equal(message, `script t.json: not valid JSON (at ${where})`, JSON.stringify(text));
    }
  });
});

describe("loadScript", () => {
  test("reads a file and names it in errors", async () => {
    const dir = await testTempDir("fake-agent-script-");
    const good = join(dir, "good.json");
    await writeFile(good, JSON.stringify([{ say: "hi" }]));
    assert.deepEqual(await loadScript(good), { turns: [[{ say: "hi" }]] });
    const bad = join(dir, "bad.json");
    await writeFile(bad, JSON.stringify([{ nope: 1 }]));
    await assert.rejects(loadScript(bad), { message: new RegExp(`^script ${bad}: step 1: unknown step "nope"`) });
    await assert.rejects(loadScript(join(dir, "missing.json")), /^Error: script .*missing\.json: cannot read: /);
  });

  test("only a regular file of a script's size is read: not a device, a folder or a huge file", async () => {
    const dir = await testTempDir("fake-agent-script-");
    const huge = join(dir, "huge.json");
    await writeFile(huge, " ".repeat(MAX_SCRIPT_BYTES + 1));
    await assert.rejects(loadScript("/dev/zero"), { message: "script /dev/zero: cannot read: not a regular file" });
    await assert.rejects(loadScript(dir), { message: `script ${dir}: cannot read: not a regular file` });
    await assert.rejects(loadScript(huge), { message: `script ${huge}: cannot read: ${MAX_SCRIPT_BYTES + 1} bytes, more than a script's ${MAX_SCRIPT_BYTES}` });
  });
});
