import { randomBytes } from "node:crypto";
import { definedFields } from "@baton/protocol/core";
import { costOf, priceOf, type CostSource, type ModelPrice, type PriceLookup } from "./pricing.ts";
import type { CallUsage } from "./usage-tap.ts";
import type { ProxyProvider, RequestFacts, WireApiName } from "./wire-routes.ts";

/** The limits the proxy admits a run's model requests against; absent ones are not checked. */
export type GrantLimits = { maxRequests?: number; tokens?: number; costUsd?: number };

/** Why a request was refused before it reached the upstream: the limit it would pass. */
export type RefusalLimit = "requests" | "tokens" | "cost";

export type GrantOptions = {
  limits: GrantLimits;
  /** Appends one of the run's events (`model.request.completed`, `model.request.refused`). */
  emit: (type: string, data: Record<string, unknown>) => void;
  /** `[proxy.prices]`: prices that win over the table. */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Output tokens a request is reserved for when it sets no cap of its own. */
  defaultMaxOutputTokens?: number;
};

/** One admitted request: what it holds of the budget until it settles. */
export type Admission = { requestId: string; provider: ProxyProvider; api: WireApiName; facts: RequestFacts; reservedTokens: number; reservedCostUsd: number; startedAt: number };

export type AdmitResult = { admitted: true; admission: Admission } | { admitted: false; limit: RefusalLimit; message: string };

/** The answer of one upstream call, as the proxy saw it pass. */
export type CallEnd = { status: number | null; ttfbMs?: number; usage?: CallUsage; model?: string; error?: string; toolCalls?: string[] };

export const RUN_TOKEN_PREFIX = "baton-run-";
const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;
/** Distinct pass-through calls listed by name in the run's log; the rest are "other calls". */
const MAX_LISTED_PASS_THROUGH = 20;
/** Models whose price a grant keeps once looked up. */
const MAX_PRICED_MODELS = 64;

/**
 * A run attempt's pass to the proxy: a random token, and the books of its model requests.
 * Requests are admitted one by one against the run's limits: request N+1 of a cap of N is
 * refused; a token or cost budget admits a request only while what is spent plus what the
 * requests in flight may spend (their reservations) is under it, so parallel requests pass the
 * line by at most one reservation. A refusal is a hard stop: every later request is refused
 * too. Each settled request is one `model.request.completed` event.
 */
export class RunGrant {
  readonly token = `${RUN_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  readonly #o: GrantOptions;
  #seq = 0;
  #admitted = 0;
  #spentTokens = 0;
  #spentCost = 0;
  #reservedTokens = 0;
  #reservedCost = 0;
  #stopped: { limit: RefusalLimit; message: string } | undefined;
  #revoked = false;
  readonly #inFlight = new Set<() => void>();
  /** Calls that were not model requests, by `provider METHOD path`: passed on (counted here) or refused. */
  readonly #passed = new Map<string, number>();
  /** Each model's price, looked up once (a run calls few models). */
  readonly #prices = new Map<string, PriceLookup>();

  constructor(options: GrantOptions) {
    this.#o = options;
  }

  get revoked(): boolean {
    return this.#revoked;
  }

  /** Requests admitted so far, and what the settled ones spent. */
  get totals(): { requests: number; tokens: number; costUsd: number } {
    return { requests: this.#admitted, tokens: this.#spentTokens, costUsd: this.#spentCost };
  }

  admit(provider: ProxyProvider, api: WireApiName, facts: RequestFacts): AdmitResult {
    const requestId = `req_${++this.#seq}`;
    const limits = this.#o.limits;
    const price = this.#price(facts.model);
    const maxOut = facts.maxOutputTokens ?? this.#o.defaultMaxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    const reservedTokens = facts.estimatedInputTokens + maxOut;
    const reservedCostUsd = costOf({ inputTokens: facts.estimatedInputTokens, outputTokens: maxOut, cacheReadTokens: 0, cacheWriteTokens: 0 }, price.price);
    const refusal =
      this.#stopped ??
      (limits.maxRequests !== undefined && this.#admitted >= limits.maxRequests
        ? { limit: "requests" as const, message: `the run's cap of ${limits.maxRequests} model requests is reached` }
        : limits.tokens !== undefined && this.#spentTokens + this.#reservedTokens >= limits.tokens
          ? { limit: "tokens" as const, message: `the run's budget of ${limits.tokens} tokens is spent` }
          : limits.costUsd !== undefined && price.price === undefined
            ? { limit: "cost" as const, message: `the run has a cost budget and Baton has no price for the model "${facts.model}" (add it under [proxy.prices])` }
            : limits.costUsd !== undefined && this.#spentCost + this.#reservedCost >= limits.costUsd
              ? { limit: "cost" as const, message: `the run's budget of $${limits.costUsd} is spent` }
              : undefined);
    if (refusal !== undefined) {
      this.#stopped = refusal;
      this.#emit("model.request.refused", { request_id: requestId, provider, api, model: facts.model, status: 403, limit: refusal.limit, message: refusal.message });
      return { admitted: false, ...refusal };
    }
    this.#admitted += 1;
    this.#reservedTokens += reservedTokens;
    this.#reservedCost += reservedCostUsd;
    return { admitted: true, admission: { requestId, provider, api, facts, reservedTokens, reservedCostUsd, startedAt: performance.now() } };
  }

  /** The request's answer ended: its reservation gives way to what it spent, and its event is appended. */
  settle(admission: Admission, end: CallEnd): void {
    this.#reservedTokens -= admission.reservedTokens;
    this.#reservedCost -= admission.reservedCostUsd;
    const usage = end.usage;
    const model = end.model ?? admission.facts.model;
    const price = this.#price(model);
    const cost = usage === undefined ? 0 : costOf(usage, price.price);
    // A token budget counts input and output tokens, as the agents' own reports do: cache reads and writes are priced, not counted.
    const tokens = usage === undefined ? 0 : usage.inputTokens + usage.outputTokens;
    this.#spentTokens += tokens;
    this.#spentCost += cost;
    const costSource: CostSource = price.source;
    this.#emit(
      "model.request.completed",
      // Two small optional parts rather than one object of every field: this runs once a call.
      {
        request_id: admission.requestId,
        provider: admission.provider,
        api: admission.api,
        model,
        stream: admission.facts.stream,
        status: end.status,
        ...definedFields({ ttfb_ms: end.ttfbMs === undefined ? undefined : round(end.ttfbMs) }),
        duration_ms: round(performance.now() - admission.startedAt),
        input_tokens: usage?.inputTokens ?? 0,
        output_tokens: usage?.outputTokens ?? 0,
        cache_read_tokens: usage?.cacheReadTokens ?? 0,
        cache_write_tokens: usage?.cacheWriteTokens ?? 0,
        usage_reported: usage !== undefined,
        cost_usd: Math.round(cost * 1e8) / 1e8,
        cost_source: costSource,
        ...definedFields({ tool_calls: end.toolCalls === undefined || end.toolCalls.length === 0 ? undefined : end.toolCalls, error: end.error }),
      },
    );
  }

  /**
   * A call that is not a model request: passed on (a read, a token count), counted and listed in
   * one `log` at the run's end; or refused, recorded at once as a warning.
   */
  passThrough(provider: ProxyProvider, method: string, path: string, passed: boolean): void {
    if (!passed) {
      this.#emit("log", { level: "warn", code: "proxy_call_refused", message: `Baton's inference proxy refused ${method} /${provider}${path}: it passes model calls, token counts and reads only` });
      return;
    }
    const distinct = this.#passed.size < MAX_LISTED_PASS_THROUGH;
    const key = distinct || this.#passed.has(`${provider} ${method} ${path}`) ? `${provider} ${method} ${path}` : "other calls";
    this.#passed.set(key, (this.#passed.get(key) ?? 0) + 1);
  }

  /** Tracks an upstream call so that revoking the grant ends it. Returns the untrack function. */
  track(abort: () => void): () => void {
    this.#inFlight.add(abort);
    return () => this.#inFlight.delete(abort);
  }

  /**
   * The run attempt ended: calls still open are cut, each recorded (the upstream may have
   * counted it: every attempt is), then the token is refused from now on.
   */
  revoke(): void {
    for (const abort of [...this.#inFlight]) abort();
    this.#inFlight.clear();
    if (this.#passed.size > 0) {
      const total = [...this.#passed.values()].reduce((sum, n) => sum + n, 0);
      const list = [...this.#passed].map(([call, n]) => `${call} ×${n}`).join(", ");
      this.#emit("log", { level: "info", code: "proxy_pass_through", message: `Baton's inference proxy passed ${total} call(s) that are not model requests (not counted against --max-requests): ${list}` });
      this.#passed.clear();
    }
    this.#revoked = true;
  }

  #price(model: string): PriceLookup {
    let price = this.#prices.get(model);
    if (price === undefined) {
      price = priceOf(model, this.#o.prices);
      if (this.#prices.size < MAX_PRICED_MODELS) this.#prices.set(model, price);
    }
    return price;
  }

  #emit(type: string, data: Record<string, unknown>): void {
    if (this.#revoked) return;
    this.#o.emit(type, data);
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
