import assert from "node:assert/strict";
import { test } from "node:test";
import { formatDiagnostic } from "../diagnostics/diagnostic.ts";
import { parseDot } from "./parser.ts";

/** The one diagnostic a refused text gets: rule and place, and a fix. */
function refusal(text: string): { rule: string; at: string; line: string } {
  const result = parseDot(text, "wf.dot");
  assert.ok(!result.ok, "the text is refused");
  const d = result.diagnostic;
  assert.equal(d.severity, "error");
  assert.ok(d.fix.length > 0);
  return { rule: d.rule, at: `${d.line}:${d.column}`, line: formatDiagnostic(d) };
}

test("strict is refused at the keyword", () => {
  const r = refusal("\n  strict digraph G { a -> b }");
  assert.deepEqual([r.rule, r.at], ["strict-graph", "2:3"]);
  assert.match(r.line, /^wf\.dot:2:3: error strict-graph: .*\(fix: remove `strict`\)$/);
});

test("an undirected graph is refused at `graph`, with the fix to write digraph", () => {
  const r = refusal("// c\ngraph G { a -- b }");
  assert.deepEqual([r.rule, r.at], ["undirected-graph", "2:1"]);
  assert.match(r.line, /write `digraph NAME \{`/);
});

test("an undirected edge -- is refused at the --, even in a chain", () => {
  const r = refusal("digraph G {\n  a -> b -- c\n}");
  assert.deepEqual([r.rule, r.at], ["undirected-edge", "2:10"]);
  assert.match(r.line, /\(fix: write `->`\)/);
});

test("an HTML label is refused where it stands, as a value or as an id", () => {
  const value = refusal('digraph G {\n  a [label=<<b>A</b>>]\n}');
  assert.deepEqual([value.rule, value.at], ["html-label", "2:12"]);
  assert.match(value.line, /quoted string/);
  assert.deepEqual(refusal("digraph G { <b> }").rule, "html-label");
});

test("a port is refused at its colon, on a node statement and in an edge", () => {
  assert.deepEqual([refusal("digraph G {\n  a:n -> b\n}").rule, refusal("digraph G {\n  a:n -> b\n}").at], ["port", "2:4"]);
  assert.deepEqual(refusal("digraph G { a -> b:sw:n }").at, "1:19");
  assert.deepEqual(refusal("digraph G { a:e [x=1] }").rule, "port");
});

test("syntax errors say what was expected and where", () => {
  const cases: Array<[string, string, RegExp]> = [
    ["digraph G {\n  a [label]\n}", "2:11", /expected "=" after the attribute name "label", found "]"/],
    ["digraph G {\n  a -> b\n", "3:1", /the file ends inside a \{ … \} block/],
    ["digraph G { a [x=1 }", "1:20", /expected a name or a value, found "}"/],
    ["digraph G { a } digraph H { }", "1:17", /after the graph's closing }/],
    ["digraph G { a [x=] }", "1:18", /expected a name or a value, found "]"/],
    ["flowchart G { }", "1:1", /a workflow starts with `digraph`/],
    ["digraph G { node }", "1:13", /`node` is a keyword/],
    ["digraph G { a [x=1", "1:19", /the file ends inside an attribute list/],
  ];
  for (const [text, at, message] of cases) {
    const r = refusal(text);
    assert.equal(r.rule, "syntax", text);
    assert.equal(r.at, at, text);
    assert.match(r.line, message);
  }
});
