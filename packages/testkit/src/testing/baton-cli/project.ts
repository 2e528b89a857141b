import { execFile } from "node:child_process";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { BATON_BIN } from "./baton-process.ts";
import { batonEnv } from "./baton-env.ts";

const execFileAsync = promisify(execFile);

/**
 * A git repository with one commit and `.baton/` made by `baton init`, whose runs need not
 * leave a change (tests of a page or a client are about what they show, and their scripts
 * mostly talk). It is made with testTempDir, so the suite validates the logs its runs leave.
 */
export async function makeProject(prefix: string): Promise<string> {
  const repo = await testTempDir(prefix);
  const git = (...args: string[]) => execFileAsync("git", args, { cwd: repo, env: batonEnv() });
  await git("init", "-q", "-b", "main");
  await writeFile(join(repo, "README.md"), "# sample\n");
  await git("add", "README.md");
  await git("commit", "-q", "-m", "Initial commit");
  await execFileAsync(process.execPath, [BATON_BIN, "init"], { cwd: repo, env: batonEnv() });
  const config = join(repo, ".baton", "config.toml");
  await writeFile(config, (await readFile(config, "utf8")).replace('require_output = "change"', 'require_output = "none"'));
  return repo;
}

/** Writes a fake-agent script (an array of steps, or one per stage) into the repository; returns its path. */
export async function writeScript(repo: string, name: string, steps: unknown): Promise<string> {
  const path = join(repo, name);
  await writeFile(path, `${JSON.stringify(steps, null, 2)}\n`);
  // Excluded from git: the working tree stays clean, so runs get their own worktree.
  await appendFile(join(repo, ".git", "info", "exclude"), `/${name}\n`);
  return path;
}
