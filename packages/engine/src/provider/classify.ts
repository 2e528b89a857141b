// Placeholder with the classifier's interface; the real rules and corpus replace it.
export type ProviderErrorClass = "rate_limited" | "overloaded" | "unreachable" | "quota" | "unauthorized" | "other";
export type ProviderRules = { provider_error_prefixes: readonly string[]; rate_limit_code?: number };
export type TurnFailureEvidence = { error?: { code: number; message: string; data?: unknown }; lastWords?: string; stderr?: readonly string[] };
export type ProviderClassification = { class: ProviderErrorClass; status?: number; retryAfterMs?: number; source: "error" | "message" | "stderr"; message: string };

export function classifyTurnFailure(evidence: TurnFailureEvidence, rules: ProviderRules): ProviderClassification {
  const text = [evidence.error?.message ?? "", JSON.stringify(evidence.error?.data ?? ""), evidence.lastWords ?? "", ...(evidence.stderr ?? [])].join(" ");
  const source = evidence.error ? "error" : evidence.stderr ? "stderr" : "message";
  const message = text.slice(0, 500);
  if (rules.rate_limit_code !== undefined && evidence.error?.code === rules.rate_limit_code) return { class: "rate_limited", source, message };
  const retry = /retry[- ]after[^0-9]{0,5}(\d+)/i.exec(text);
  const retryAfterMs = retry ? Number(retry[1]) * 1000 : undefined;
  const withRetry = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (/\b429\b|rate.?limit/i.test(text)) return { class: "rate_limited", status: 429, source, message, ...withRetry };
  if (/\b529\b|overloaded|\b503\b/i.test(text)) return { class: "overloaded", source, message, ...withRetry };
  if (/quota|\b402\b/i.test(text)) return { class: "quota", source, message };
  if (/\b40[13]\b|unauthori[sz]ed|api key/i.test(text)) return { class: "unauthorized", source, message };
  if (/ECONNREFUSED|ECONNRESET|socket hang up/i.test(text)) return { class: "unreachable", source, message };
  return { class: "other", source, message };
}

export function providerFailureInWords(lastWords: string, rules: ProviderRules): ProviderClassification | undefined {
  const trimmed = lastWords.trim();
  if (!rules.provider_error_prefixes.some((prefix) => trimmed.startsWith(prefix))) return undefined;
  return { ...classifyTurnFailure({ lastWords: trimmed }, rules), source: "message" };
}
