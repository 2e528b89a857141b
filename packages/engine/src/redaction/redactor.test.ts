import assert from "node:assert/strict";
import { test } from "node:test";
import { REDACTED, Redactor, StreamRedactor } from "./redactor.ts";
import { secretsFromEnv } from "./secrets.ts";

const SECRET = "s3cr3t-value-123";

test("secret-looking variables of at least 8 characters are secrets; others are not", () => {
  const secrets = secretsFromEnv({
    GITHUB_TOKEN: SECRET,
    OPENAI_API_KEY: "sk-abcdefgh",
    DB_PASSWORD: "short",
    HOME: "/home/someone-long",
    auth_header: "Bearer abcdefgh",
  });
  assert.deepEqual(secrets.sort(), ["Bearer abcdefgh", SECRET, "sk-abcdefgh"].sort());
});

test("every occurrence is replaced, in nested values and keys too", () => {
  const redactor = new Redactor([SECRET]);
  assert.equal(redactor.redactText(`a ${SECRET} b ${SECRET}`), `a ${REDACTED} b ${REDACTED}`);
  assert.deepEqual(redactor.redactValue({ list: [`x${SECRET}`], [SECRET]: 1, n: 2 }), { list: [`x${REDACTED}`], [REDACTED]: 1, n: 2 });
});

test("a secret is caught in its JSON-escaped form in raw protocol lines", () => {
  const tricky = 'pa"ss\\word-1';
  const redactor = new Redactor([tricky]);
  const line = JSON.stringify({ text: `key=${tricky}` });
  assert.ok(!redactor.redactText(line).includes(JSON.stringify(tricky).slice(1, -1)));
  assert.equal((JSON.parse(redactor.redactText(line)) as { text: string }).text, `key=${REDACTED}`);
});

test("a secret split across streamed chunks is still caught", () => {
  const stream = new StreamRedactor(new Redactor([SECRET]));
  const chunks = ["the token is s3cr", "3t-val", "ue-123 and more text ", "that follows"];
  let out = "";
  for (const chunk of chunks) out += stream.push(chunk);
  out += stream.flush();
  assert.equal(out, `the token is ${REDACTED} and more text that follows`);
});

test("without secrets, streamed text passes through at once", () => {
  const stream = new StreamRedactor(new Redactor([]));
  assert.equal(stream.push("hello"), "hello");
  assert.equal(stream.flush(), "");
});
