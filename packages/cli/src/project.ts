import { stat } from "node:fs/promises";
import { join } from "node:path";
import { BatonError } from "@baton/engine/errors";
import { findRepoRoot } from "@baton/engine/git";

export const BATON_DIR = ".baton";

export type Project = { root: string; batonDir: string };

/** The git repository holding `cwd` and its `.baton/`, which must exist. */
export async function locateProject(cwd: string): Promise<Project> {
  const root = await findRepoRoot(cwd);
  const batonDir = join(root, BATON_DIR);
  const found = await stat(batonDir).catch(() => undefined);
  if (!found?.isDirectory()) {
    throw new BatonError("not_initialized", `no ${BATON_DIR}/ in ${root}`, { hint: "run `baton init` there first" });
  }
  return { root, batonDir };
}
