import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CONFIG_FILE, DEFAULT_CONFIG_TEXT, findRepoRoot } from "@baton/engine";
import { EXIT, type CliContext } from "../context.ts";
import { BATON_DIR } from "../project.ts";
import { visibleText } from "../render/terminal-text.ts";

/** Everything below `.baton/` is local state except the settings and the workflows, which may be shared. */
const GITIGNORE = `# Baton's local state: run logs, the index, worktrees. The settings and workflows are shared.
*
!.gitignore
!${CONFIG_FILE}
!workflows/
!workflows/**
`;

export async function initCommand(ctx: CliContext, options: { hints?: boolean } = {}): Promise<number> {
  const root = await findRepoRoot(ctx.cwd);
  const batonDir = join(root, BATON_DIR);
  await mkdir(join(batonDir, "runs"), { recursive: true });
  const wrote: string[] = [];
  for (const [name, content] of [[CONFIG_FILE, DEFAULT_CONFIG_TEXT], [".gitignore", GITIGNORE]] as const) {
    try {
      await writeFile(join(batonDir, name), content, { flag: "wx" });
      wrote.push(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  ctx.stdout.write(
    wrote.length > 0
      ? `Initialised ${visibleText(batonDir)} (${wrote.join(", ")}).\n${options.hints === false ? "" : 'Next: baton run "TASK" --agent fake --script FILE\n'}`
      : `${visibleText(batonDir)} is already initialised; nothing changed.\n`,
  );
  return EXIT.succeeded;
}
