import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { catalog, FINAL_TYPES, TERMINAL_TYPES } from "./catalog/index.ts";
import { START_END_PAIRS } from "./core/open-starts.ts";
import { DEFAULT_EVENT_LIMIT_BYTES } from "./envelope.ts";
import { PROTOCOL_DOC_FILE, renderCatalogTable, TABLE_END, TABLE_START, withCatalogTable, WRITE_CATALOG_TABLE_COMMAND } from "./write-catalog-table.ts";

const doc = await readFile(PROTOCOL_DOC_FILE, "utf8");

test("the catalog table in docs/protocol.md is the one generated from the catalog", () => {
  assert.ok(withCatalogTable(doc) === doc, `the catalog table in docs/protocol.md is out of date: run \`${WRITE_CATALOG_TABLE_COMMAND}\``);
  assert.ok(doc.includes(renderCatalogTable()));
});

test("docs/protocol.md names every catalog type in its table", () => {
  const table = doc.slice(doc.indexOf(TABLE_START), doc.indexOf(TABLE_END));
  for (const def of catalog) assert.ok(table.includes(`| \`${def.type}\` |`), `${def.type} is missing from docs/protocol.md`);
});

test("docs/protocol.md states the terminal and final types, the size cap and the schema file", () => {
  const prose = doc.slice(0, doc.indexOf(TABLE_START));
  for (const type of TERMINAL_TYPES) assert.ok(prose.includes(`\`${type}\``), type);
  assert.ok(prose.includes(`FINAL_TYPES`) && FINAL_TYPES.every((type) => prose.includes(`\`${type}\``)));
  assert.ok(prose.includes(DEFAULT_EVENT_LIMIT_BYTES.toLocaleString("en-US")));
  assert.ok(prose.includes(`"limit_bytes":${DEFAULT_EVENT_LIMIT_BYTES}`));
  assert.ok(prose.includes("docs/schema/events.v1.json"));
});

test("docs/protocol.md's table of starts and their ends is START_END_PAIRS", () => {
  const prose = doc.slice(0, doc.indexOf(TABLE_START));
  for (const [start, pair] of Object.entries(START_END_PAIRS)) {
    const row = prose.split("\n").find((line) => line.startsWith(`| \`${start}\` |`));
    assert.ok(row !== undefined, `${start} has a row`);
    for (const end of pair.ends) assert.ok(row.includes(`\`${end}\``), `${start}'s row names ${end}`);
    for (const field of pair.by) assert.ok(row.includes(`\`${field}\``), `${start}'s row names ${field}`);
  }
});

test("withCatalogTable refuses a doc without the markers instead of dropping the table", () => {
  assert.throws(() => withCatalogTable("# no table here\n"), /no catalog table markers/);
});
