import assert from "node:assert/strict";
import { test } from "node:test";
import { DotSyntaxError } from "./syntax-error.ts";
import { tokenize } from "./tokenizer.ts";

const kinds = (text: string) => tokenize(text).map((t) => (t.kind === "id" ? `${t.literal}:${t.text}` : t.kind === "string" ? `string:${t.text}` : t.kind));

test("every token keeps its line and column (1-based) and offset", () => {
  const tokens = tokenize('digraph G {\n  a -> "b"\n}');
  assert.deepEqual(
    tokens.map((t) => [t.text, t.pos.line, t.pos.column, t.pos.offset]),
    [["digraph", 1, 1, 0], ["G", 1, 9, 8], ["{", 1, 11, 10], ["a", 2, 3, 14], ["->", 2, 5, 16], ["b", 2, 8, 19], ["}", 3, 1, 23], ["", 3, 2, 24]],
  );
});

test("bare words may hold - and . but an arrow or -- still splits them", () => {
  assert.deepEqual(kinds("gpt-5.2 claude-sonnet-4-5 human.default_choice a->b a--b"), [
    "word:gpt-5.2", "word:claude-sonnet-4-5", "word:human.default_choice", "word:a", "->", "word:b", "word:a", "--", "word:b", "eof",
  ]);
});

test("integers, floats, booleans and durations are told apart", () => {
  assert.deepEqual(kinds("42 -1 0 3.14 -0.5 .5 true false TRUE 250ms 30s 15m 2h 1d 1.5h 10x"), [
    "integer:42", "integer:-1", "integer:0", "float:3.14", "float:-0.5", "float:.5", "boolean:true", "boolean:false", "boolean:TRUE",
    "duration:250ms", "duration:30s", "duration:15m", "duration:2h", "duration:1d", "word:1.5h", "word:10x", "eof",
  ]);
});

test("//, /* */ and # comments are dropped, and lines still count", () => {
  const tokens = tokenize("a // one\n/* two\nthree */ b # four\nc");
  assert.deepEqual(tokens.map((t) => [t.text, t.pos.line]), [["a", 1], ["b", 3], ["c", 4], ["", 4]]);
});

test("quoted strings read \\n \\t \\\" \\\\, keep raw line breaks, join a backslash-newline and keep other backslashes", () => {
  const [token] = tokenize('"one\\ntwo\\tthree \\"q\\" back\\\\slash\nraw line\\\njoined ^v\\d+"');
  assert.equal(token?.kind, "string");
  assert.equal(token?.text, 'one\ntwo\tthree "q" back\\slash\nraw linejoined ^v\\d+');
});

test("a string that spans lines leaves the next token on the right line", () => {
  const tokens = tokenize('"a\nb\nc" next');
  assert.deepEqual([tokens[1]?.text, tokens[1]?.pos.line, tokens[1]?.pos.column], ["next", 3, 4]);
});

test("punctuation, including the refused -- and ports' :, are tokens of their own", () => {
  assert.deepEqual(kinds('{ } [ ] = ; , : + -> --'), ["{", "}", "[", "]", "=", ";", ",", ":", "+", "->", "--", "eof"]);
});

test("an HTML string is one token, nesting counted, so it can be refused where it stands", () => {
  const tokens = tokenize("x=<<b>bold</b>> y");
  assert.deepEqual([tokens[2]?.kind, tokens[2]?.text, tokens[3]?.text], ["html", "<<b>bold</b>>", "y"]);
});

test("an unclosed string or comment, and a stray character, are errors at their place", () => {
  const errorAt = (text: string) => {
    try {
      tokenize(text);
    } catch (error) {
      assert.ok(error instanceof DotSyntaxError);
      return `${error.pos.line}:${error.pos.column} ${error.message}`;
    }
    assert.fail("no error");
  };
  assert.equal(errorAt('a\n  "never closed'), "2:3 a quoted string is never closed");
  assert.equal(errorAt("a /* open"), "1:3 a /* comment is never closed");
  assert.equal(errorAt("a\n b @"), '2:4 unexpected character "@"');
});

test("a byte-order mark at the start is skipped", () => {
  assert.deepEqual(kinds("\uFEFFdigraph"), ["word:digraph", "eof"]);
});
