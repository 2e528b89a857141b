import assert from "node:assert/strict";
import { test } from "node:test";
import { takeToken, TOKEN_KEY } from "./token.ts";

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value), map };
}

test("the token is taken from the address, kept for the tab, and removed from the address bar", () => {
  const storage = memoryStorage();
  const replaced: Array<string | undefined> = [];
  const history = { replaceState: (_data: unknown, _unused: string, url?: string) => void replaced.push(url) };
  assert.equal(takeToken({ href: "http://127.0.0.1:4000/?token=abc&x=1#/runs/2" }, storage, history), "abc");
  assert.equal(storage.map.get(TOKEN_KEY), "abc");
  assert.deepEqual(replaced, ["/?x=1#/runs/2"]);
  assert.equal(takeToken({ href: "http://127.0.0.1:4000/#/runs/2" }, storage, history), "abc");
  assert.equal(replaced.length, 1);
});

test("no token anywhere is undefined", () => {
  assert.equal(takeToken({ href: "http://h/" }, memoryStorage(), { replaceState: () => undefined }), undefined);
});
