// Sorts a failed agent turn into a provider-error class from what the agent said: its JSON-RPC
// error (message and data), its own text in the turn, and, when it died mid-turn, its last
// standard-error lines. Pure: no I/O, no schema library. The phrasings it knows are the ones
// the real agents were seen to use against the model twin (provider-errors.corpus.json).

import { definedFields } from "@baton/protocol/core";

export type ProviderErrorClass = "rate_limited" | "overloaded" | "unreachable" | "quota" | "unauthorized" | "other";
/** Per-agent rules, from the agent's registry entry. */
export type ProviderRules = { provider_error_prefixes: readonly string[]; rate_limit_code?: number };
/** What is known about one failed turn. */
export type TurnFailureEvidence = {
  /** The JSON-RPC error the agent answered session/prompt with. */
  error?: { code: number; message: string; data?: unknown };
  /** The agent's own text in that turn (its messages joined, last one last). */
  lastWords?: string;
  /** The agent's last standard-error lines, when it died mid-turn. */
  stderr?: readonly string[];
};
export type ProviderClassification = {
  class: ProviderErrorClass;
  /** The HTTP status the words name, when they name one as a provider's. */
  status?: number;
  /** How long the provider asked to wait (retry-after), when the words say. */
  retryAfterMs?: number;
  /** Where the deciding words came from. */
  source: "error" | "message" | "stderr";
  /** The deciding words, cut to 500 chars (the caller redacts). */
  message: string;
};

const MESSAGE_MAX = 500;

/** What one piece of text (or data) says about a provider failure. */
type Reading = { class: ProviderErrorClass; status?: number; retryAfterMs?: number };

// --- HTTP statuses, only where words make them a provider's --------------------------------

/** Each pattern captures a 4xx/5xx status that the words around it make a provider's. */
const STATUS_PATTERNS: readonly RegExp[] = [
  // Claude Code: "API Error: 529 …", "API Error: Request rejected (429) · …"
  /\bAPI Error:?\s*([45]\d\d)\b/i,
  // "status 429", "status: 429", "status_code: 401", "statusCode=503", "unexpected status 403", "last status: 429"
  /(?<!exit[ _-]?)\b(?:http[ _-]?)?status(?:[ _-]?code)?["']?\s*[:=]?\s*([45]\d\d)\b/i,
  /\b(?:statusCode|httpStatusCode|httpStatus)["']?\s*[:=]?\s*([45]\d\d)\b/,
  // "HTTP 503", "HTTP/1.1 503", "HTTP error 500"
  /\bHTTP(?:\/\d(?:\.\d)?)?(?:\s+error)?\s*[:=]?\s*([45]\d\d)\b/i,
  // "error code: 429", "error_code=529"
  /\berror[ _-]?code["']?\s*[:=]?\s*([45]\d\d)\b/i,
  // "429 Too Many Requests", "503 Service Unavailable", "529 <unknown status code>", "529 Overloaded"
  /\b([45]\d\d)\s+(?:Too Many Requests|Service Unavailable|Internal Server Error|Bad Gateway|Gateway Time-?out|Unauthorized|Forbidden|Payment Required|Request Timeout|Overloaded|<unknown status code>)/i,
  // "Request rejected (429)", "failed (503)", "API returned an error (529)"
  /\b(?:error|errors|rejected|failed|failure|status|API|HTTP|request|response)\b[^()\n]{0,60}\(([45]\d\d)\)/i,
];

/** The first provider status the text names, if any. */
function statusInWords(text: string): number | undefined {
  let best: { at: number; status: number } | undefined;
  for (const pattern of STATUS_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined && (best === undefined || match.index < best.at)) best = { at: match.index, status: Number(match[1]) };
  }
  return best?.status;
}

// --- retry-after ------------------------------------------------------------------------------

const UNIT_MS: Record<string, number> = { ms: 1, millisecond: 1, milliseconds: 1, s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000, m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000 };
const UNIT = "(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)";

const RETRY_AFTER_PATTERNS: ReadonlyArray<{ pattern: RegExp; defaultUnit: string }> = [
  { pattern: /\bretry[- _]?after[- _]?ms["']?\s*[:=]?\s*(\d+(?:\.\d+)?)()/i, defaultUnit: "ms" },
  { pattern: new RegExp(String.raw`\bretry[- _]?after["']?\s*[:=]?\s*(\d+(?:\.\d+)?)\s*${UNIT}?\b`, "i"), defaultUnit: "s" },
  { pattern: new RegExp(String.raw`\b(?:retry|try again)\s+(?:in|after)\s+(\d+(?:\.\d+)?)\s*${UNIT}\b`, "i"), defaultUnit: "s" },
];

/** How long the words ask to wait, in milliseconds. */
function retryAfterInWords(text: string): number | undefined {
  for (const { pattern, defaultUnit } of RETRY_AFTER_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1] === undefined) continue;
    const unit = (match[2] || defaultUnit).toLowerCase();
    return Math.round(Number(match[1]) * (UNIT_MS[unit] ?? 1000));
  }
  return undefined;
}

// --- words ------------------------------------------------------------------------------------

/** Spending and usage limits: retrying does not help. Checked first: a 429 saying "quota" is a quota. */
const QUOTA_WORDS =
  /insufficient[_ ]quota|exceeded your (?:current )?quota|quota (?:exceeded|exhausted)|usage[_ ]limit|spend(?:ing)?[_ ]limit|credit balance is too low|insufficient (?:credits|funds|balance)|out of credits|billing|payment required|billing_error|account_on_hold/i;
const RATE_WORDS = /rate[_ -]?limit|too many requests|RESOURCE_EXHAUSTED|resource has been exhausted|throttl/i;
const AUTH_WORDS =
  /invalid[_ -]?(?:x-)?api[_ -]?key|incorrect api key|api key not valid|api key (?:is )?(?:invalid|expired|revoked)|authentication|failed to authenticate|authentication_error|unauthori[sz]ed|UNAUTHENTICATED|PERMISSION_DENIED|permission_error|auth_required/i;
const OVERLOAD_WORDS =
  /overloaded|service[_ ]unavailable|temporarily unavailable|\bUNAVAILABLE\b|experiencing high demand|internal server error|server had an error|bad gateway|gateway time-?out|at capacity/i;
/** A provider that cannot be reached or dropped the connection; never a bare "timed out". */
const UNREACHABLE_WORDS =
  /ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+|connection (?:refused|reset|closed|dropped|lost|error|failed|aborted)|socket (?:hang up|connection was closed)|fetch failed|failed to fetch|cannot connect to api|unable to connect|network error|unexpected eof|\bEOF\b|stream disconnected|error sending request|idle timeout|(?:request|connection|network|read|socket|stream|response) (?:timed out|timeout)|timed out waiting for (?:the )?(?:response|server|stream|sse|headers|first byte)/i;

/** Kinds agents and providers name in structured fields (errorKind, codexErrorInfo, type, status, code). */
const KINDS: Record<string, ProviderErrorClass> = {};
function kinds(cls: ProviderErrorClass, names: string): void {
  for (const name of names.split(" ")) KINDS[name] = cls;
}
kinds("rate_limited", "ratelimit ratelimiterror ratelimitexceeded ratelimited resourceexhausted toomanyrequests");
kinds("overloaded", "overloaded overloadederror serveroverloaded servererror internalservererror unavailable serviceunavailable");
kinds("quota", "insufficientquota billingerror accountonhold usagelimitexceeded quotaexceeded quotaexhausted paymentrequired");
kinds(
  "unauthorized",
  "authenticationerror authenticationfailed permissionerror permissiondenied unauthenticated unauthorized invalidapikey oauthorgnotallowed verificationrequired cloudcredentialerror authrequired",
);
kinds("unreachable", "httpconnectionfailed responsestreamconnectionfailed responsestreamdisconnected apiconnectionerror connectionerror apiconnectiontimeouterror");

function kindClass(name: string): ProviderErrorClass | undefined {
  return KINDS[name.toLowerCase().replace(/[^a-z]/g, "")];
}

function statusClass(status: number): ProviderErrorClass {
  if (status === 402) return "quota";
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "unauthorized";
  if (status === 408) return "unreachable";
  if (status >= 500) return "overloaded";
  return "other";
}

/**
 * Decides a class from what was found. Order matters where signals overlap: quota words (or a
 * 402) beat a 429, since a spending limit answered with 429 is still a quota, unless the
 * provider also says when to retry (a per-minute quota: a rate limit); then the status; then
 * words in the order rate limit, unauthorized, overloaded, unreachable; then kinds named in
 * structured fields.
 */
function decide(found: { status?: number; retryAfterMs?: number; words: readonly string[]; kinds: readonly ProviderErrorClass[] }): Reading {
  const text = found.words.join("\n");
  const extras = definedFields({ status: found.status, retryAfterMs: found.retryAfterMs });
  const quota = QUOTA_WORDS.test(text) || found.status === 402 || found.kinds.includes("quota");
  if (quota) return { class: found.status !== 402 && found.retryAfterMs !== undefined ? "rate_limited" : "quota", ...extras };
  if (found.status !== undefined && statusClass(found.status) !== "other") return { class: statusClass(found.status), ...extras };
  if (RATE_WORDS.test(text)) return { class: "rate_limited", ...extras };
  if (AUTH_WORDS.test(text)) return { class: "unauthorized", ...extras };
  if (OVERLOAD_WORDS.test(text)) return { class: "overloaded", ...extras };
  if (UNREACHABLE_WORDS.test(text)) return { class: "unreachable", ...extras };
  for (const cls of ["rate_limited", "unauthorized", "overloaded", "unreachable"] as const) {
    if (found.kinds.includes(cls)) return { class: cls, ...extras };
  }
  return { class: "other", ...extras };
}

// --- structured data --------------------------------------------------------------------------

const STATUS_KEYS = new Set(["status", "statuscode", "status_code", "httpstatuscode", "httpstatus", "http_status"]);
const KIND_KEYS = new Set(["errorkind", "error_kind", "kind", "type", "code", "status", "reason", "codexerrorinfo", "errorname", "error_type", "errortype"]);
const RETRY_MS_KEYS = new Set(["retryafterms", "retry_after_ms", "retrydelayms", "retry_delay_ms"]);
const RETRY_S_KEYS = new Set(["retryafter", "retry_after", "retrydelay", "retry_delay"]);

type Found = { status?: number; retryAfterMs?: number; words: string[]; kinds: ProviderErrorClass[] };

/** A JSON object or array inside a string (a provider's error body quoted in a message), parsed. */
function embeddedJson(text: string): unknown {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const end = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
  if (end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    return undefined;
  }
}

function isHttpErrorStatus(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 400 && value <= 599;
}

/** Collects statuses, kinds, retry delays and words from structured data (nested, with JSON inside strings). */
function walk(value: unknown, found: Found, depth = 0): void {
  if (depth > 8 || value === null || value === undefined) return;
  if (typeof value === "string") {
    found.words.push(value);
    const inner = value.length > 1 && /[{[]/.test(value) ? embeddedJson(value) : undefined;
    if (inner !== undefined && typeof inner === "object") walk(inner, found, depth + 1);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) walk(item, found, depth + 1);
    return;
  }
  if (typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(record)) {
    const name = key.toLowerCase();
    // Structured kinds named by key: codex's {responseStreamDisconnected: {httpStatusCode}}.
    const keyKind = typeof item === "object" && item !== null ? kindClass(key) : undefined;
    if (keyKind !== undefined) found.kinds.push(keyKind);
    if (STATUS_KEYS.has(name) && isHttpErrorStatus(item)) found.status ??= item;
    // A provider error body: {"error": {"code": 429, "message": …, "status": "RESOURCE_EXHAUSTED"}}.
    if (name === "code" && isHttpErrorStatus(item) && (typeof record["message"] === "string" || typeof record["status"] === "string" || typeof record["type"] === "string")) {
      found.status ??= item;
    }
    if (KIND_KEYS.has(name) && typeof item === "string") {
      const kind = kindClass(item);
      if (kind !== undefined) found.kinds.push(kind);
    }
    if (RETRY_MS_KEYS.has(name) && typeof item === "number") found.retryAfterMs ??= Math.round(item);
    if (RETRY_S_KEYS.has(name)) {
      if (typeof item === "number") found.retryAfterMs ??= Math.round(item * 1000);
      else if (typeof item === "string" && /^\d+(?:\.\d+)?s?$/.test(item.trim())) found.retryAfterMs ??= Math.round(Number.parseFloat(item) * 1000);
    }
    walk(item, found, depth + 1);
  }
}

/** Reads free text (and any JSON body quoted in it) and, for a JSON-RPC error, its data. */
function read(text: string, data?: unknown): Reading {
  const found: Found = { words: [text], kinds: [] };
  const inner = /[{[]/.test(text) ? embeddedJson(text) : undefined;
  if (inner !== undefined && typeof inner === "object") walk(inner, found);
  if (data !== undefined) walk(data, found);
  // Words name statuses and delays before fields do: "API Error: 529" beats a nested field.
  const status = statusInWords(text) ?? found.status ?? statusInWords(found.words.slice(1).join("\n"));
  const retryAfterMs = retryAfterInWords(text) ?? found.retryAfterMs ?? retryAfterInWords(found.words.slice(1).join("\n"));
  return decide({ ...found, ...definedFields({ status, retryAfterMs }) });
}

// --- sources ----------------------------------------------------------------------------------

type Candidate = Reading & { source: ProviderClassification["source"]; message: string };

function cut(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= MESSAGE_MAX ? trimmed : `${trimmed.slice(0, MESSAGE_MAX - 1)}…`;
}

/** Paragraphs of a text, last first: the agent's latest words decide. */
function paragraphsLastFirst(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .reverse();
}

/** A standard-error line counts only when it is a provider's phrasing: a provider status or one of the known words. */
function providerLine(line: string): Reading | undefined {
  const reading = read(line);
  if (reading.class === "other") return undefined;
  return reading;
}

function candidates(evidence: TurnFailureEvidence, rules: ProviderRules): Candidate[] {
  const found: Candidate[] = [];
  const { error } = evidence;
  if (error !== undefined) {
    const reading = read(error.message, error.data);
    const rateLimitCode = rules.rate_limit_code !== undefined && error.code === rules.rate_limit_code;
    found.push({ ...reading, ...(rateLimitCode ? { class: "rate_limited" as const } : {}), source: "error", message: error.message });
  }
  if (evidence.lastWords !== undefined) {
    for (const paragraph of paragraphsLastFirst(evidence.lastWords)) found.push({ ...read(paragraph), source: "message", message: paragraph });
  }
  for (const line of [...(evidence.stderr ?? [])].reverse()) {
    const reading = providerLine(line);
    if (reading !== undefined) found.push({ ...reading, source: "stderr", message: line });
  }
  return found;
}

/**
 * Sorts one failed turn. The JSON-RPC error decides first (an entry's `rate_limit_code`, then
 * its message and data: words before fields), then the agent's own words (latest paragraph first), then
 * standard-error lines that are a provider's phrasing. A status or retry delay the deciding
 * words lack is taken from another source that reads the same class.
 *
 * @example
 * classifyTurnFailure({ error: { code: -32603, message: "Internal error: API Error: 529 Overloaded" } }, { provider_error_prefixes: ["API Error:"] })
 * // → { class: "overloaded", status: 529, source: "error", message: "Internal error: API Error: 529 Overloaded" }
 */
export function classifyTurnFailure(evidence: TurnFailureEvidence, rules: ProviderRules): ProviderClassification {
  const all = candidates(evidence, rules);
  const decided = all.find((candidate) => candidate.class !== "other");
  if (decided === undefined) {
    const source: ProviderClassification["source"] = evidence.error !== undefined ? "error" : evidence.lastWords?.trim() ? "message" : evidence.stderr?.length ? "stderr" : "error";
    const message =
      source === "error" ? (evidence.error?.message ?? "") : source === "message" ? (paragraphsLastFirst(evidence.lastWords ?? "")[0] ?? "") : (evidence.stderr?.at(-1) ?? "");
    const status = all.find((candidate) => candidate.status !== undefined)?.status;
    return definedFields({ class: "other" as const, status, source, message: cut(message) });
  }
  const same = all.filter((candidate) => candidate.class === decided.class);
  const status = decided.status ?? same.find((candidate) => candidate.status !== undefined)?.status;
  const retryAfterMs = decided.retryAfterMs ?? same.find((candidate) => candidate.retryAfterMs !== undefined)?.retryAfterMs;
  return definedFields({ class: decided.class, status, retryAfterMs, source: decided.source, message: cut(decided.message) });
}

/** Curly and straight apostrophes compare equal: agents write "We’re", configs "We're". */
function normalize(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'");
}

/**
 * Whether a turn the agent ended as done really gave up on the provider: its last message starts
 * with one of the entry's provider_error_prefixes (after trimming). The text is tried whole and
 * by its last paragraph, since an agent's messages in a turn arrive joined (Codex puts a model
 * warning first and the error last). Only prefixes count: agents that end a turn normally after
 * a provider failure each do it with fixed words (the corpus), and words anywhere else in a
 * message are too easily the model's own talk. Returns the classification when it did.
 *
 * @example
 * providerFailureInWords("unexpected status 403 Forbidden: …", { provider_error_prefixes: ["unexpected status "] })
 * // → { class: "unauthorized", status: 403, source: "message", message: "unexpected status 403 Forbidden: …" }
 */
export function providerFailureInWords(lastWords: string, rules: ProviderRules): ProviderClassification | undefined {
  const prefixes = rules.provider_error_prefixes.map(normalize).filter((prefix) => prefix.trim() !== "");
  if (prefixes.length === 0) return undefined;
  const whole = lastWords.trim();
  const last = paragraphsLastFirst(whole)[0] ?? "";
  for (const text of [whole, last]) {
    if (text === "" || !prefixes.some((prefix) => normalize(text).startsWith(prefix.trimStart()))) continue;
    return { ...read(text), source: "message", message: cut(text) };
  }
  return undefined;
}
