import { BatonError } from "@baton/engine/errors";
import { displayUrl, migrateStore, storeStatus } from "@baton/engine/store";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { STORE_ENV, storeUrlOf } from "../project-store.ts";
import { visibleText } from "../render/terminal-text.ts";

/** The store URL for a command about the store itself: given, or the project's; never the embedded store. */
async function storeUrl(ctx: CliContext): Promise<string> {
  const given = ctx.env[STORE_ENV];
  const url = given !== undefined && given !== "" ? given : await locateProject(ctx.cwd).then((project) => storeUrlOf(ctx, project.batonDir), () => undefined);
  if (url === undefined) {
    throw new BatonError("no_store_url", "no PostgreSQL store is named (the embedded store needs no migration)", {
      hint: "give --store postgres://user@host:5432/database, BATON_STORE, or [store] url in .baton/config.toml",
    });
  }
  return url;
}

/** `baton store migrate`: creates or upgrades Baton's schema in the store's database. */
export async function storeMigrateCommand(ctx: CliContext): Promise<number> {
  const url = await storeUrl(ctx);
  const applied = await migrateStore(url);
  const shown = visibleText(displayUrl(url));
  ctx.stdout.write(applied.length === 0 ? `${shown}: the schema is up to date\n` : `${shown}: applied schema version${applied.length > 1 ? "s" : ""} ${applied.join(", ")}\n`);
  return EXIT.succeeded;
}

/** `baton store status`: the schema, the runs, and the feed: its position, what waits for a position, and what holds it back. */
export async function storeStatusCommand(ctx: CliContext, options: { json?: boolean }): Promise<number> {
  const status = await storeStatus(await storeUrl(ctx));
  if (options.json === true) {
    ctx.stdout.write(`${JSON.stringify(status)}\n`);
    return EXIT.succeeded;
  }
  const { schema, feed } = status;
  const schemaLine = schema.version === 0 ? "none (run `baton store migrate`)" : schema.version === schema.known ? `version ${schema.version}` : `version ${schema.version}, this Baton knows ${schema.known}`;
  const oldest = feed.oldest_transaction;
  ctx.stdout.write(
    [
      `store:     ${visibleText(status.url)}`,
      `schema:    ${schemaLine}`,
      `runs:      ${status.runs}`,
      `feed:      position ${feed.position}, ${feed.unsequenced} committed event(s) waiting for a position`,
      `oldest transaction: ${oldest === null ? "none open" : `pid ${oldest.pid}, open ${(oldest.age_ms / 1000).toFixed(1)} s (${visibleText(oldest.query.replaceAll(/\s+/g, " "))}): the feed waits for it`}`,
    ].join("\n") + "\n",
  );
  return EXIT.succeeded;
}
