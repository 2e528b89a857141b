import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { BUILTIN_AGENTS } from "../agents/builtin-agents.ts";
import { classifyTurnFailure, providerFailureInWords } from "./classify.ts";
import type { ProviderClassification, ProviderErrorClass, ProviderRules, TurnFailureEvidence } from "./classify.ts";
import { definedFields } from "@baton/protocol/core";

type CorpusEntry = {
  agent: "claude" | "codex" | "gemini" | "opencode" | "handmade";
  agent_version: string;
  fault: string;
  evidence: TurnFailureEvidence;
  ended: "error" | "end_turn" | "exited";
  expected: { class: ProviderErrorClass; status?: number; retry_after_ms?: number };
  note?: string;
};

const corpus = JSON.parse(readFileSync(new URL("./provider-errors.corpus.json", import.meta.url), "utf8")) as CorpusEntry[];

/** The rules each agent's built-in entry gives; handmade phrasings are read with no agent rules. */
function rulesOf(agent: CorpusEntry["agent"]): ProviderRules {
  if (agent === "handmade") return { provider_error_prefixes: [] };
  const entry: { provider_error_prefixes?: readonly string[]; rate_limit_code?: number } = BUILTIN_AGENTS[agent];
  return {
    provider_error_prefixes: entry.provider_error_prefixes ?? [],
    ...definedFields({ rate_limit_code: entry.rate_limit_code }),
  };
}

const NONE: TurnFailureEvidence = {};
const RULES: ProviderRules = { provider_error_prefixes: [] };
const internal = (message: string, data?: unknown) => ({ error: definedFields({ code: -32603, message, data }) });
const pick = (c: ProviderClassification | undefined) => c && { class: c.class, status: c.status, retryAfterMs: c.retryAfterMs };

describe("the corpus of real agents' words", () => {
  test("holds entries from all four agents and a few handmade ones, each named once", () => {
    const agents = new Set(corpus.map((entry) => entry.agent));
    assert.deepEqual([...agents].sort(), ["claude", "codex", "gemini", "handmade", "opencode"]);
    const names = corpus.map((entry) => `${entry.agent} ${entry.fault}`);
    assert.deepEqual(names.filter((name, i) => names.indexOf(name) !== i), []);
  });

  for (const entry of corpus) {
    test(`${entry.agent} ${entry.fault} → ${entry.expected.class}`, () => {
      const rules = rulesOf(entry.agent);
      const got =
        entry.ended === "end_turn"
          ? providerFailureInWords(entry.evidence.lastWords ?? "", rules)
          : classifyTurnFailure(entry.evidence, rules);
      assert.ok(got, `a turn ended as done with these words counts as a provider failure: ${JSON.stringify(entry.evidence.lastWords)}`);
      assert.deepEqual(
        { class: got.class, status: got.status, retry_after_ms: got.retryAfterMs },
        { class: entry.expected.class, status: entry.expected.status, retry_after_ms: entry.expected.retry_after_ms },
        `${JSON.stringify(entry.evidence).slice(0, 600)}\n→ ${JSON.stringify(got)}`,
      );
      assert.ok(got.message.length > 0 && got.message.length <= 500, "the deciding words are kept, cut to 500 characters");
    });
  }
});

describe("a status code counts only next to words that make it a provider's", () => {
  const cases: Array<[string, ProviderErrorClass, number | undefined]> = [
    ["API Error: 429 slow down", "rate_limited", 429],
    ["request failed with status 503", "overloaded", 503],
    ["HTTP 503 from upstream", "overloaded", 503],
    ["Request rejected (529)", "overloaded", 529],
    ["unexpected status 401 Unauthorized: no", "unauthorized", 401],
    ["429 Too Many Requests", "rate_limited", 429],
    ["the build failed: exit code 429", "other", undefined],
    ["the command ended with exit status 503", "other", undefined],
    ["syntax error at line 500", "other", undefined],
    ["wrote 401 files in 529 ms", "other", undefined],
  ];
  for (const [words, cls, status] of cases) {
    test(`${JSON.stringify(words)} → ${cls}${status === undefined ? "" : ` ${status}`}`, () => {
      const got = classifyTurnFailure(internal(`Internal error: ${words}`), RULES);
      assert.equal(got.class, cls);
      assert.equal(got.status, status);
    });
  }

  test("in data, a status field counts, and so does the code of a provider's error body", () => {
    assert.deepEqual(pick(classifyTurnFailure(internal("Internal error", { status_code: 401 }), RULES)), { class: "unauthorized", status: 401, retryAfterMs: undefined });
    const body = JSON.stringify({ error: { code: 503, message: "try later", status: "UNAVAILABLE" } });
    assert.deepEqual(pick(classifyTurnFailure(internal("Internal error", { details: body }), RULES)), { class: "overloaded", status: 503, retryAfterMs: undefined });
    // A bare number under an unrelated key is not a status.
    assert.equal(classifyTurnFailure(internal("Internal error", { line: 500, exitCode: 429 }), RULES).class, "other");
  });

  test("the JSON-RPC code itself is not a status", () => {
    assert.equal(classifyTurnFailure({ error: { code: 503, message: "something broke" } }, RULES).class, "other");
    assert.equal(classifyTurnFailure({ error: { code: 500, message: "exception TypeError: fetch failed sending request" } }, RULES).class, "unreachable");
  });

  test("a bare 'timed out' is not a provider's; a request or connection timeout is", () => {
    assert.equal(classifyTurnFailure(internal("Internal error: the test command timed out"), RULES).class, "other");
    assert.equal(classifyTurnFailure(internal("Internal error: Request timed out"), RULES).class, "unreachable");
    assert.equal(classifyTurnFailure(internal("Internal error: connect ETIMEDOUT 10.0.0.1:443"), RULES).class, "unreachable");
  });
});

describe("rate_limit_code", () => {
  const rules: ProviderRules = { provider_error_prefixes: [], rate_limit_code: 429 };

  test("makes a JSON-RPC error with that code rate_limited whatever its words", () => {
    const got = classifyTurnFailure({ error: { code: 429, message: "the model twin refused this request" } }, rules);
    assert.deepEqual({ class: got.class, source: got.source, message: got.message }, { class: "rate_limited", source: "error", message: "the model twin refused this request" });
    assert.equal(classifyTurnFailure({ error: { code: 429, message: "You exceeded your current quota" } }, rules).class, "rate_limited");
  });

  test("other codes are read by their words", () => {
    assert.equal(classifyTurnFailure({ error: { code: 401, message: "the model twin refused this request" } }, rules).class, "other");
    assert.equal(classifyTurnFailure({ error: { code: -32603, message: "Internal error: API Error: 529 Overloaded" } }, rules).class, "overloaded");
  });

  test("without it, the same error is other", () => {
    assert.equal(classifyTurnFailure({ error: { code: 429, message: "the model twin refused this request" } }, RULES).class, "other");
  });
});

describe("retry-after", () => {
  const cases: Array<[string, number]> = [
    ["Rate limit reached. Please try again in 2s.", 2000],
    ["Rate limit reached. Please try again in 1.5 seconds.", 1500],
    ["429 Too Many Requests; retry-after: 30", 30_000],
    ["429 Too Many Requests (Retry-After 7)", 7000],
    ["status 429, retry-after-ms: 2500", 2500],
    ["rate limited, retry after 250ms", 250],
    ["rate limited: retry in 2 minutes", 120_000],
  ];
  for (const [words, ms] of cases) {
    test(`${JSON.stringify(words)} → ${ms} ms`, () => {
      const got = classifyTurnFailure(internal(words), RULES);
      assert.equal(got.class, "rate_limited");
      assert.equal(got.retryAfterMs, ms);
    });
  }

  test("from data: retry-after seconds, milliseconds, and Google's retryDelay", () => {
    assert.equal(classifyTurnFailure(internal("Internal error: rate limited", { retry_after: 12 }), RULES).retryAfterMs, 12_000);
    assert.equal(classifyTurnFailure(internal("Internal error: rate limited", { retryAfterMs: 900 }), RULES).retryAfterMs, 900);
    const google = { error: { code: 429, status: "RESOURCE_EXHAUSTED", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "24s" }] } };
    assert.deepEqual(pick(classifyTurnFailure(internal("Internal error", google), RULES)), { class: "rate_limited", status: 429, retryAfterMs: 24_000 });
  });

  test("words without a number ask for no particular wait", () => {
    assert.equal(classifyTurnFailure(internal("Internal error: API Error: 529 Overloaded. try again in a moment"), RULES).retryAfterMs, undefined);
  });

  test("a quota with a time to retry is a rate limit; without one, or with a 402, a quota", () => {
    assert.equal(classifyTurnFailure(internal("429: You exceeded your current quota. Please retry in 24.5s."), RULES).class, "rate_limited");
    assert.equal(classifyTurnFailure(internal("API Error: 429 You exceeded your current quota, please check your plan and billing details."), RULES).class, "quota");
    assert.equal(classifyTurnFailure(internal("API Error: 402 payment required, retry after 60"), RULES).class, "quota");
  });
});

describe("where the deciding words come from", () => {
  test("a generic error defers to the agent's words, then to data", () => {
    const got = classifyTurnFailure({ error: { code: -32603, message: "Internal error" }, lastWords: "Looking into it.\n\nAPI Error: 503 Service Unavailable" }, RULES);
    assert.deepEqual({ class: got.class, status: got.status, source: got.source, message: got.message }, { class: "overloaded", status: 503, source: "message", message: "API Error: 503 Service Unavailable" });
    assert.equal(classifyTurnFailure(internal("Internal error", { errorKind: "rate_limit" }), RULES).class, "rate_limited");
  });

  test("a status the deciding words lack is taken from another source of the same class", () => {
    const got = classifyTurnFailure({ error: { code: -32000, message: "Authentication required" }, lastWords: "Failed to authenticate. API Error: 401 invalid x-api-key" }, RULES);
    assert.deepEqual({ class: got.class, status: got.status, source: got.source }, { class: "unauthorized", status: 401, source: "error" });
  });

  test("stderr lines count only when they are a provider's phrasing", () => {
    const stderr = ["loading config", "tool bash timed out", "Error: connect ECONNREFUSED 127.0.0.1:443", "shutting down"];
    const got = classifyTurnFailure({ stderr }, RULES);
    assert.deepEqual({ class: got.class, source: got.source, message: got.message }, { class: "unreachable", source: "stderr", message: "Error: connect ECONNREFUSED 127.0.0.1:443" });
    assert.equal(classifyTurnFailure({ stderr: ["panic: index out of range at line 500", "exit code 429"] }, RULES).class, "other");
  });

  test("nothing known is other, with the error's words", () => {
    assert.deepEqual(classifyTurnFailure(NONE, RULES), { class: "other", source: "error", message: "" });
    const got = classifyTurnFailure(internal("Internal error: tool call had no result"), RULES);
    assert.deepEqual(got, { class: "other", source: "error", message: "Internal error: tool call had no result" });
  });

  test("the message is cut to 500 characters", () => {
    const got = classifyTurnFailure(internal(`Internal error: API Error: 529 Overloaded ${"x".repeat(2000)}`), RULES);
    assert.equal(got.message.length, 500);
  });
});

describe("providerFailureInWords", () => {
  const claude = rulesOf("claude");
  const codex = rulesOf("codex");

  test("a last message that starts with a prefix is a provider failure, sorted by its words", () => {
    assert.deepEqual(pick(providerFailureInWords("  API Error: 529 Overloaded\n", claude)), { class: "overloaded", status: 529, retryAfterMs: undefined });
    const got = providerFailureInWords("API Error: Request rejected (429) · slow down", claude);
    assert.deepEqual({ source: got?.source, message: got?.message }, { source: "message", message: "API Error: Request rejected (429) · slow down" });
  });

  test("the last paragraph counts: Codex puts a model warning before the error", () => {
    const words = "Warning: Model metadata for `gpt-5-codex` not found.\n\nunexpected status 403 Forbidden: nope, url: <twin>/v1/responses\n\n";
    assert.deepEqual(pick(providerFailureInWords(words, codex)), { class: "unauthorized", status: 403, retryAfterMs: undefined });
  });

  test("curly and straight apostrophes match alike", () => {
    assert.equal(providerFailureInWords("We're currently experiencing high demand, which may cause temporary errors.", codex)?.class, "overloaded");
    assert.equal(providerFailureInWords("We’re currently experiencing high demand, which may cause temporary errors.", codex)?.class, "overloaded");
  });

  test("a prefix with unknown words after it is still a failure, of class other", () => {
    assert.equal(providerFailureInWords("API Error: something new", claude)?.class, "other");
  });

  test("words that only mention a provider failure are not one", () => {
    assert.equal(providerFailureInWords("Done. I added retries for API Error: 429 responses.", claude), undefined);
    assert.equal(providerFailureInWords("Hello from the model twin.", claude), undefined);
    assert.equal(providerFailureInWords("Warning: Model metadata for `gpt-5-codex` not found.\n\nHello from the model twin.", codex), undefined);
    assert.equal(providerFailureInWords("The server said unexpected status 500 earlier; fixed.", codex), undefined);
  });

  test("an entry without prefixes never reads a done turn as failed", () => {
    assert.equal(providerFailureInWords("API Error: 529 Overloaded", RULES), undefined);
  });
});
