import type { ProxyProvider } from "./wire-routes.ts";

/**
 * The proxy's own refusals in the provider's error shape, so the agent reads them as it would
 * the provider's: 401 for a token that is not (or no longer) a running run's, 403 for a run
 * past its request cap or budget. Never 429, which agents retry.
 */
export function providerErrorBody(provider: ProxyProvider, status: 401 | 403 | 502, message: string): unknown {
  switch (provider) {
    case "anthropic":
      return { type: "error", error: { type: status === 401 ? "authentication_error" : status === 403 ? "permission_error" : "api_error", message } };
    case "openai":
      return { error: { message, type: status === 401 ? "invalid_request_error" : status === 403 ? "insufficient_quota" : "server_error", param: null, code: status === 401 ? "invalid_api_key" : status === 403 ? "budget_exhausted" : null } };
    case "gemini":
      return { error: { code: status, message, status: status === 401 ? "UNAUTHENTICATED" : status === 403 ? "PERMISSION_DENIED" : "UNAVAILABLE" } };
  }
}
