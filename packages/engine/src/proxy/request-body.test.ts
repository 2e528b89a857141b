import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { REQUEST_FIELDS, topLevelFields, withField } from "./request-body.ts";

const values = (text: string, names: ReadonlySet<string> = REQUEST_FIELDS) => {
  const fields = topLevelFields(Buffer.from(text), names);
  return fields === undefined ? undefined : Object.fromEntries([...fields].map(([name, field]) => [name, field.value]));
};

/** The fields of `names` as JSON.parse reads them. */
const parsedFields = (text: string, names: ReadonlySet<string>) =>
  Object.fromEntries(Object.entries(JSON.parse(text) as Record<string, unknown>).filter(([name]) => names.has(name)));

describe("a request body's top-level fields", () => {
  test("the fields read, the rest skipped: nested values, strings with escapes and brackets, whitespace, unicode, a repeated name", () => {
    const body = ` {\n "messages" : [{"role":"user","content":"a \\"quoted\\" {[ text ]} \\\\"}, {"content": [1, 2.5e3, -0, true, false, null, {"x": "}"}]}],\r\n\t"model":"claude-sonnet-4-5", "système": "é", "stream" : true ,"max_tokens":4096, "metadata": {"user_id": "u\\u0041"}, "model": "claude-opus-4-1" } `;
    assert.deepEqual(values(body), { model: "claude-opus-4-1", stream: true, max_tokens: 4096 });
    assert.deepEqual(values(body, new Set(["système", "metadata", "messages"])), parsedFields(body, new Set(["système", "metadata", "messages"])));
    assert.deepEqual(values(`{"mod\\u0065l":"m","generationConfig":{"maxOutputTokens":10}}`), { model: "m", generationConfig: { maxOutputTokens: 10 } });
    assert.deepEqual(values("{}"), {});
    assert.deepEqual(values(" { } "), {});
  });

  test("random objects: the same fields as JSON.parse", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const strings = ["", "a", 'q"uote', "back\\slash", "brace}]", "é ü 😀", "\n\t", "model", "\\\""];
    const value = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 3 ? 4 : 6));
      if (kind === 0) return strings[Math.floor(random() * strings.length)];
      if (kind === 1) return Math.round((random() - 0.5) * 1e6) / 100;
      if (kind === 2) return random() < 0.5;
      if (kind === 3) return null;
      if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`${strings[Math.floor(random() * strings.length)]}${i}`, value(depth + 1)]));
    };
    const names = new Set(["model", "stream", "k1", "k2"]);
    for (let round = 0; round < 300; round++) {
      const object = Object.fromEntries(["model", "messages", "stream", "k1", "k2", "z"].filter(() => random() < 0.7).map((name) => [name, value(0)]));
      const text = JSON.stringify(object, null, round % 3 === 0 ? 2 : undefined);
      assert.deepEqual(values(text, names), parsedFields(text, names), text);
    }
  });

  test("not an object, or cut: undefined", () => {
    for (const text of ["", "[]", '"s"', "1", "null", "{", '{"model"', '{"model":', '{"model":"m"', '{"model":"m",}', '{"model" "m"}', '{"a":[1,2}', '{"a":{"b":1]}', '{"a":"cut}', '{"model":"m"} x', '{"model":tru}', "\ufeff{}"]) {
      assert.equal(values(text), undefined, text);
    }
  });

  test("a field set: its value replaced in place, or added first; the other bytes as they came", () => {
    const set = (text: string) => {
      const body = Buffer.from(text);
      return withField(body, topLevelFields(body, REQUEST_FIELDS) ?? new Map(), "stream_options", { include_usage: true }).toString();
    };
    assert.equal(set(`{"model":"gpt-4.1", "stream": true}`), `{"stream_options":{"include_usage":true},"model":"gpt-4.1", "stream": true}`);
    assert.equal(set(` { "stream_options" : {"x":1} , "stream":true}`), ` { "stream_options" : {"include_usage":true} , "stream":true}`);
    assert.equal(set(`{ }`), `{"stream_options":{"include_usage":true} }`);
    assert.deepEqual(JSON.parse(set(`{"stream":true,"stream_options":null}`)), { stream: true, stream_options: { include_usage: true } });
  });
});
