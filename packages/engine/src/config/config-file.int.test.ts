import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { isBatonError } from "../errors.ts";
import { readConfigText } from "./config-file.ts";

async function refusal(path: string): Promise<string> {
  try {
    await readConfigText(path);
  } catch (error) {
    assert.ok(isBatonError(error), String(error));
    assert.equal(error.code, "bad_config");
    return error.toLine();
  }
  assert.fail(`expected ${path} to be refused`);
}

test("a config file is read; a missing one is none", async () => {
  const dir = await testTempDir("config-file-");
  assert.equal(await readConfigText(join(dir, "config.toml")), undefined);
  await writeFile(join(dir, "config.toml"), "[session]\n");
  assert.equal(await readConfigText(join(dir, "config.toml")), "[session]\n");
});

test("a directory, a named pipe or a symlink loop in the config's place is one bad_config line naming it and the fix", async () => {
  const dir = await testTempDir("config-file-bad-");
  const folder = join(dir, "folder.toml");
  await mkdir(folder);
  assert.equal(await refusal(folder), `${folder} is a directory, not a file: remove it (or move it away) to use the defaults, or put a config.toml file in its place`);
  const pipe = join(dir, "pipe.toml");
  execFileSync("mkfifo", [pipe]);
  assert.match(await refusal(pipe), /pipe\.toml is not a regular file: replace it with a config\.toml file/, "refused at once, not waiting for a writer");
  const loop = join(dir, "loop.toml");
  await symlink(loop, loop);
  assert.equal(await refusal(loop), `${loop} cannot be read (ELOOP): replace it with a readable config.toml file, or remove it to use the defaults`);
});

test("a config file its user may not read says so and how to fix it", { skip: process.getuid?.() === 0 ? "root reads every file" : false }, async () => {
  const dir = await testTempDir("config-file-denied-");
  const path = join(dir, "config.toml");
  await writeFile(path, "[session]\n");
  await chmod(path, 0o000);
  assert.equal(await refusal(path), `${path} cannot be read: permission denied: let your user read it (chmod u+r ${path}), or remove it to use the defaults`);
});
