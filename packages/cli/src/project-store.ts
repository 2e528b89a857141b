import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { definedFields } from "@baton/protocol/core";
import { openStore, type RunStore, type StoreOptions } from "@baton/engine/store";
import type { CliContext } from "./context.ts";
import type { Project } from "./project.ts";

/** The environment variable naming the store (`--store` sets it for the command and its children). */
export const STORE_ENV = "BATON_STORE";

/**
 * Where the project's runs are: `--store` or BATON_STORE, else `[store] url` of config.toml,
 * else undefined (the embedded store in `.baton/`). The config is parsed only when it has a
 * `[store]` table: the commands that only read runs do not load the config's schemas.
 */
export async function storeUrlOf(ctx: CliContext, batonDir: string): Promise<string | undefined> {
  const given = ctx.env[STORE_ENV];
  if (given !== undefined && given !== "") return given;
  const text = await readFile(join(batonDir, "config.toml"), "utf8").catch(() => undefined);
  if (text === undefined || !/^\s*\[store\]/m.test(text)) return undefined;
  const { loadConfig } = await import("@baton/engine/config");
  return (await loadConfig(batonDir)).store.url;
}

/** Opens the project's store, wherever it is (see storeUrlOf). */
export async function openProjectStore(ctx: CliContext, project: Project, options: StoreOptions = {}): Promise<RunStore> {
  return openStore(project.batonDir, definedFields({ ...options, url: await storeUrlOf(ctx, project.batonDir) }));
}
