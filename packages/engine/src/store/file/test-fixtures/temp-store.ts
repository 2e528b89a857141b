import { spawn, type ChildProcess } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import type { TestContext } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { fileURLToPath } from "node:url";

/**
 * A fresh `<tmp>/.baton` under the suite's root, whose logs are validated after the suite.
 * Tests that leave a broken log on purpose pass `{ validateLogs: false }`.
 */
export async function makeBatonDir(_t: TestContext, options: { validateLogs?: boolean } = {}): Promise<string> {
  const root = await testTempDir("baton-store-", options);
  const batonDir = path.join(root, ".baton");
  await mkdir(batonDir);
  return batonDir;
}

/** A clock that moves one millisecond per call: deterministic event times. */
export function steppingClock(start = "2026-01-01T00:00:00.000Z"): () => Date {
  let ms = Date.parse(start);
  return () => new Date(ms++);
}

export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** A fixture script of this folder run as a real child process, its stdout read line by line. */
export type Child = { process: ChildProcess; line: () => Promise<string>; exited: Promise<number | null> };

export function spawnFixture(t: TestContext, script: string, args: string[]): Child {
  const child = spawn(process.execPath, [path.join(here, script), ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    process: child,
    exited,
    line: async () => {
      const next = await lines.next();
      if (next.done === true) throw new Error(`${script} ended without the expected output`);
      return next.value;
    },
  };
}
