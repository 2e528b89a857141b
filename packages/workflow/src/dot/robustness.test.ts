import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { checkWorkflow } from "../check/check.ts";
import { readWorkflow } from "../definition/from-dot.ts";

const CORPORA = [join(import.meta.dirname, "fixtures"), join(import.meta.dirname, "..", "check", "fixtures")];
/** Every this many characters a cut is tried: small enough to land in every kind of token. */
const CUT_STEP = 3;

test("no text makes reading or checking throw: every cut of every corpus file is a definition or a diagnostic", async () => {
  let cuts = 0;
  for (const dir of CORPORA) {
    for (const name of (await readdir(dir)).filter((n) => /\.(dot|fabro)$/.test(n))) {
      const text = await readFile(join(dir, name), "utf8");
      for (let end = 0; end <= text.length; end += CUT_STEP) {
        const result = readWorkflow(text.slice(0, end), { file: name });
        assert.ok(result.definition !== undefined || result.diagnostics.length === 1, `${name} cut at ${end}`);
        if (result.definition !== undefined) checkWorkflow(result.definition, { file: name, fileExists: () => false, baseDir: dir, homeDir: dir });
        cuts++;
      }
    }
  }
  assert.ok(cuts > 1000);
});

test("odd but legal names and values: empty strings, empty shape, a graph named \"\"", () => {
  const result = readWorkflow('digraph "" { a [shape="", label=""]; b [type=""]; a -> b [label="", condition="x"] }', { file: "odd.dot" });
  assert.equal(result.definition?.name, "odd");
  assert.deepEqual(result.definition?.nodes.map((n) => [n.handler, n.shape]), [["agent", "box"], ["agent", "box"]]);
  assert.deepEqual(readWorkflow('digraph { "" -> a }', { file: "e.dot" }).diagnostics.map((d) => d.message), ['a node needs a name, not ""']);
});
