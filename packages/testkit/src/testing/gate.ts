import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { testTempDir } from "@baton/protocol/testing";

/**
 * A point in a fake-agent script where the turn waits for the test (`{"wait_for": path}`):
 * the test opens the gate once it has seen what it checks (an event in the log, a DOM
 * change), so a run is still running exactly as long as the test needs, never for a guessed
 * time. The file lives in a fresh temporary directory of its own, outside any repository.
 *
 * @example
 * const gate = await makeGate("finish");
 * const script = [{ say: "Working." }, gate.step, { say: "Done." }];
 * // … the run waits at the gate while the test looks …
 * await gate.open();
 */
export type Gate = {
  /** The file whose existence lets the turn go on. */
  readonly path: string;
  /** The script step that waits at this gate. */
  readonly step: { wait_for: string };
  /** Lets the turn waiting at the gate go on (creates its file). */
  open(): Promise<void>;
};

export async function makeGate(name: string): Promise<Gate> {
  const path = join(await testTempDir("gate-"), name);
  return { path, step: { wait_for: path }, open: () => writeFile(path, `${name}\n`) };
}
