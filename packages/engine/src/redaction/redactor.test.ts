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

test("AUTH marks a secret but AUTHOR does not: a git identity is not redacted", () => {
  const secrets = secretsFromEnv({
    GIT_AUTHOR_NAME: "Jane Developer",
    GIT_AUTHOR_EMAIL: "jane@example.com",
    AUTHORS: "Jane and Joe Developer",
    HTTP_AUTHORIZATION: "Bearer abcdefgh",
    OAUTH_CLIENT: "client-1234567",
    BASIC_AUTH: "user:password",
  });
  assert.deepEqual(secrets.sort(), ["Bearer abcdefgh", "client-1234567", "user:password"].sort());
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

test("streamed text that cannot begin a secret passes at once; only a possible beginning is held back", () => {
  const stream = new StreamRedactor(new Redactor([SECRET, "sk-ant-0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz"]));
  assert.equal(stream.push("Looking at the failing test now. "), "Looking at the failing test now. ");
  assert.equal(stream.push("The key is s3c"), "The key is ");
  assert.equal(stream.push("r3t-value-1"), "");
  assert.equal(stream.push("23, done"), `${REDACTED}, done`);
  assert.equal(stream.push(" (s3"), " (");
  assert.equal(stream.push("x)"), "s3x)", "a beginning that did not continue is released");
  assert.equal(stream.push("ends with s"), "ends with ");
  assert.equal(stream.flush(), "s");
});

test("a secret split into one-character chunks is still caught", () => {
  const stream = new StreamRedactor(new Redactor([SECRET]));
  let out = "";
  for (const char of `before ${SECRET} after`) out += stream.push(char);
  out += stream.flush();
  assert.equal(out, `before ${REDACTED} after`);
});

test("without secrets, streamed text passes through at once", () => {
  const stream = new StreamRedactor(new Redactor([]));
  assert.equal(stream.push("hello"), "hello");
  assert.equal(stream.flush(), "");
});

test("pieces of a secret at the ends of separately kept records are hidden; ordinary text is not", () => {
  const redactor = new Redactor([SECRET]);
  const pieces = ["the token is s3cr", "3t-val", "ue-123 and more"];
  assert.deepEqual(
    pieces.map((piece) => redactor.redactPieces(piece)),
    [`the token is ${REDACTED}`, REDACTED, `${REDACTED} and more`],
  );
  assert.equal(redactor.redactPieces("the token is s3"), "the token is s3", "two characters are too few to tell");
  assert.equal(redactor.redactPieces(`whole ${SECRET} here`), `whole ${REDACTED} here`);
  assert.equal(redactor.redactPieces("nothing secret"), "nothing secret");
  assert.equal(new Redactor([]).redactPieces("s3cr"), "s3cr");
});
