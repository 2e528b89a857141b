// Reading the web UI the way a user sees it: what its timeline shows, and which events.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { WAIT_MS } from "@baton/testkit/baton-cli";

/** The seqs every timeline item says it shows, in page order (`data-seqs`). */
export async function renderedSeqs(page: Page): Promise<number[]> {
  const lists: string[] = await page.locator(".timeline .items > li").evaluateAll((items) => items.map((item) => item.getAttribute("data-seqs") ?? ""));
  return lists.flatMap((list) => list.split(" ").filter((seq) => seq !== "").map(Number));
}

/** Waits until the run page shows its final item and the stream is over. */
export async function waitForRunEnd(page: Page): Promise<void> {
  await page.locator(".timeline .item-end").waitFor({ timeout: WAIT_MS });
  await page.locator('[data-connection="ended"]').waitFor({ timeout: WAIT_MS });
}

/** The id of the only run of a repository. */
export async function onlyRunId(repo: string): Promise<string> {
  const ids = await readdir(join(repo, ".baton", "runs"));
  if (ids.length !== 1) throw new Error(`expected one run, found ${ids.join(", ")}`);
  return ids[0]!;
}

/** The id of the repository's latest run (run ids sort by creation time). */
export async function newestRunId(repo: string): Promise<string> {
  const ids = (await readdir(join(repo, ".baton", "runs"))).sort();
  if (ids.length === 0) throw new Error("expected a run, found none");
  return ids.at(-1)!;
}

/** Collects the page's uncaught errors into `errors` (returned), for the test to check at its end. */
export function failOnPageErrors(page: Page, errors: Error[] = []): Error[] {
  page.on("pageerror", (error) => errors.push(error));
  return errors;
}
