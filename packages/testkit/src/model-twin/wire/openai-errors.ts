/** OpenAI's error body (chat completions and Responses): `{error: {message, type, param, code}}`. */
export function openAiErrorBody(status: number, message: string): unknown {
  const [type, code] = OPENAI_ERROR_TYPES[status] ?? ["server_error", "server_error"];
  return { error: { message, type, param: null, code } };
}

const OPENAI_ERROR_TYPES: Record<number, [string, string]> = {
  400: ["invalid_request_error", "invalid_request"],
  401: ["invalid_request_error", "invalid_api_key"],
  402: ["insufficient_quota", "insufficient_quota"],
  403: ["invalid_request_error", "permission_denied"],
  404: ["invalid_request_error", "not_found"],
  429: ["rate_limit_error", "rate_limit_exceeded"],
  500: ["server_error", "server_error"],
  502: ["server_error", "bad_gateway"],
  503: ["server_error", "overloaded"],
  529: ["server_error", "overloaded"],
};
