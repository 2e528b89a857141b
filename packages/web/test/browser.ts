// A real browser for the web UI's tests: Debian's chromium, driven by playwright-core, in a
// fresh profile. Never a browser downloaded by playwright: CI installs the distribution's.
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { WAIT_MS } from "@baton/testkit/baton-cli";

export const CHROMIUM_PATH = "/usr/bin/chromium";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Why the browser tests cannot run here, or undefined when they can. Without chromium they
 * skip, unless BATON_REQUIRE_BROWSER is set (CI sets it): then they fail.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH) || process.env["BATON_REQUIRE_BROWSER"]) return undefined;
  return `${CHROMIUM_PATH} is missing (apt-get install chromium); set BATON_REQUIRE_BROWSER=1 to fail instead of skipping`;
}

/**
 * A browser (playwright gives each launch a fresh, temporary profile) with one context;
 * dispose it to close both.
 */
export async function launchBrowser(): Promise<{ browser: Browser; context: BrowserContext } & AsyncDisposable> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install chromium)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const context = await browser.newContext();
  // Waits are for conditions, never for time: give them the suite's generous budget.
  context.setDefaultTimeout(WAIT_MS);
  return { browser, context, [Symbol.asyncDispose]: () => browser.close() };
}
