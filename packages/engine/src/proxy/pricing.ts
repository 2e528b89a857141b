import type { CallUsage } from "./usage-tap.ts";

/** USD per million tokens. Cache reads and writes default to the input price when absent. */
export type ModelPrice = { input: number; output: number; cache_read?: number; cache_write?: number };

/**
 * Where a call's cost came from: `config` (a `[proxy.prices]` entry), `table` (Baton's table
 * of list prices, below), or `unpriced` (a model neither knows: its cost is 0, and a cost
 * budget refuses its requests).
 */
export type CostSource = "config" | "table" | "unpriced";

/**
 * List prices of common models by id prefix, longest prefix first when looked up. They are
 * list prices at the time of writing: a gateway's or a contract's own prices go in
 * `[proxy.prices]`, which wins.
 */
export const PRICE_TABLE: Readonly<Record<string, ModelPrice>> = {
  "claude-opus-4-1": { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 },
  "claude-opus-4": { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 },
  "claude-sonnet-4": { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  "claude-3-7-sonnet": { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  "claude-haiku-4": { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 },
  "claude-3-5-haiku": { input: 0.8, output: 4, cache_read: 0.08, cache_write: 1 },
  "gpt-5-mini": { input: 0.25, output: 2, cache_read: 0.025 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cache_read: 0.005 },
  "gpt-5": { input: 1.25, output: 10, cache_read: 0.125 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cache_read: 0.1 },
  "gpt-4.1": { input: 2, output: 8, cache_read: 0.5 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cache_read: 0.075 },
  "gpt-4o": { input: 2.5, output: 10, cache_read: 1.25 },
  "o4-mini": { input: 1.1, output: 4.4, cache_read: 0.275 },
  "gemini-2.5-pro": { input: 1.25, output: 10, cache_read: 0.31 },
  "gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cache_read: 0.025 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5, cache_read: 0.075 },
};

export type PriceLookup = { price: ModelPrice; source: Exclude<CostSource, "unpriced"> } | { price: undefined; source: "unpriced" };

/**
 * A model's price: the config's entry for its exact id or longest matching prefix, else the
 * table's. A provider prefix (`anthropic/…`, `models/…`) is ignored.
 */
export function priceOf(model: string, configured: Readonly<Record<string, ModelPrice>> = {}): PriceLookup {
  const id = model.replace(/^.*\//, "");
  const fromConfig = longestPrefix(configured, id);
  if (fromConfig !== undefined) return { price: fromConfig, source: "config" };
  const fromTable = longestPrefix(PRICE_TABLE, id);
  return fromTable === undefined ? { price: undefined, source: "unpriced" } : { price: fromTable, source: "table" };
}

/** What a call's tokens cost at a price, in USD. */
export function costOf(usage: CallUsage, price: ModelPrice | undefined): number {
  if (price === undefined) return 0;
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  return (
    usage.inputTokens * perToken(price.input) +
    usage.outputTokens * perToken(price.output) +
    usage.cacheReadTokens * perToken(price.cache_read ?? price.input) +
    usage.cacheWriteTokens * perToken(price.cache_write ?? price.input)
  );
}

function longestPrefix(prices: Readonly<Record<string, ModelPrice>>, id: string): ModelPrice | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(prices)) {
    if (id.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : prices[best];
}
