import assert from "node:assert/strict";
import { test } from "node:test";
import { ToolOutputFiles } from "./tool-output-files.ts";
import { PREVIEW_CHARS } from "./tool-output.ts";

function setup(written = true) {
  const calls: string[] = [];
  const files = new ToolOutputFiles(
    {
      write: (call) => {
        calls.push(`write ${call}`);
        return written ? { file: `outputs/${call}.txt` } : undefined;
      },
      reserve: (call) => calls.push(`reserve ${call}`),
      release: (call) => calls.push(`release ${call}`),
    },
    (text) => text.replaceAll("hunter2", "[REDACTED]"),
  );
  return { files, calls };
}

const long = "x".repeat(PREVIEW_CHARS + 1);

test("an output longer than its preview is written whole; the preview is redacted before it is cut", () => {
  const { files, calls } = setup();
  files.running("t1", "execute");
  const placed = files.finished("t1", "execute", `hunter2 ${long}`);
  assert.deepEqual(placed, { preview: `[REDACTED] ${long}`.slice(0, PREVIEW_CHARS), output_file: "outputs/t1.txt" });
  assert.deepEqual(calls, ["reserve t1", "write t1"]);
});

test("a claimed call ending with no output or one its preview holds gives its claim up; one never claimed releases nothing", () => {
  const { files, calls } = setup();
  files.running("t1", "read");
  assert.deepEqual(files.finished("t1", "read", ""), {});
  files.running("t2", "execute");
  assert.deepEqual(files.finished("t2", "execute", "short"), { preview: "short" });
  assert.deepEqual(files.finished("t3", "other", "short"), { preview: "short" });
  assert.deepEqual(calls, ["reserve t1", "release t1", "reserve t2", "release t2"]);
});

test("after a call of a kind whose output fit its preview, the next of that kind is not claimed a file ahead; other kinds still are", () => {
  const { files, calls } = setup();
  files.running("t1", "read");
  files.finished("t1", "read", "short");
  files.running("t2", "read");
  files.running("t3", "execute");
  files.finished("t2", "read", long);
  files.running("t4", "read");
  assert.deepEqual(calls, ["reserve t1", "release t1", "reserve t3", "write t2", "reserve t4"]);
});

test("an abandoned call gives up its claim once; a trace that writes nothing leaves the event with its preview alone", () => {
  const { files, calls } = setup(false);
  files.running("t1", "execute");
  files.abandoned("t1");
  files.abandoned("t1");
  files.running("t2", "execute");
  assert.deepEqual(files.finished("t2", "execute", long), { preview: long.slice(0, PREVIEW_CHARS) });
  assert.deepEqual(calls, ["reserve t1", "release t1", "reserve t2", "write t2"]);
});
