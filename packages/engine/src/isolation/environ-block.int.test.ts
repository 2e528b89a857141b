import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";
import { secretEntries } from "./environ-block.ts";

const run = promisify(execFile);

test("the secret entries of an environment block are found with the byte range of their values", () => {
  const block = Buffer.from("HOME=/root\0MY_API_TOKEN=tök-12345678\0SHORT_KEY=abc\0GIT_AUTHOR_NAME=Jane Developer\0", "utf8");
  const entries = secretEntries(block);
  assert.deepEqual(entries.map((entry) => entry.name), ["MY_API_TOKEN"]);
  const [token] = entries;
  assert.equal(block.toString("utf8", token?.valueStart, token?.valueEnd), "tök-12345678");
});

test("a process that hides its secret variables keeps none in /proc/self/environ or process.env, and the rest as it was", async () => {
  const secret = "s3cret-value-that-must-go";
  const child = `
    import { readFileSync } from "node:fs";
    import { execFileSync } from "node:child_process";
    import { hideSecretEnvironment } from ${JSON.stringify(new URL("./environ-block.ts", import.meta.url).href)};
    const result = hideSecretEnvironment(process.env);
    const block = readFileSync("/proc/self/environ", "utf8");
    const inherited = execFileSync("sh", ["-c", "echo \${MY_API_TOKEN-unset}"], { encoding: "utf8" }).trim();
    console.log(JSON.stringify({ result, block, token: process.env.MY_API_TOKEN ?? null, plain: process.env.PLAIN_SETTING, inherited }));
  `;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", child], { env: { PATH: process.env["PATH"], MY_API_TOKEN: secret, PLAIN_SETTING: "kept" } });
  const seen = JSON.parse(stdout) as { result: unknown; block: string; token: string | null; plain: string; inherited: string };
  assert.deepEqual(seen.result, { hidden: ["MY_API_TOKEN"] });
  assert.ok(!seen.block.includes(secret), "the block no longer holds the value");
  assert.ok(seen.block.includes("PLAIN_SETTING=kept"), "other variables stay in the block");
  assert.equal(seen.token, null, "process.env no longer has it");
  assert.equal(seen.plain, "kept");
  assert.equal(seen.inherited, "unset", "a child started afterwards does not inherit it");
});
