import type { z } from "@hono/zod-openapi";
import { apiError } from "../../http/api-errors.ts";
import { FIELD_ERRORS } from "./fields.ts";

/**
 * The app's answer to a request a route's schemas refuse (`defaultHook` of @hono/zod-openapi):
 * the first issue, as the API's error (its code and hint by the field it is about), thrown to
 * the app's one error translation.
 */
export function validationHook(result: { success: true } | { success: false; error: z.ZodError }): void {
  if (result.success) return;
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? "");
  const known = FIELD_ERRORS[field] ?? { code: "bad_request" };
  throw apiError(known.code, issue?.message ?? "the request is not valid", known.hint);
}
