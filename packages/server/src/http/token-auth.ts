import { timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { errorBody } from "./api-errors.ts";

/**
 * Requires the server's token: `Authorization: Bearer T`, or `?token=T` for clients that
 * cannot set headers (a browser's EventSource). Compared in constant time.
 */
export function tokenAuth(token: string): MiddlewareHandler {
  const expected = Buffer.from(token, "utf8");
  const matches = (given: string | undefined) => {
    if (given === undefined) return false;
    const bytes = Buffer.from(given, "utf8");
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };
  return async (c, next) => {
    const header = c.req.header("authorization");
    const bearer = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!matches(bearer) && !matches(c.req.query("token"))) {
      c.header("WWW-Authenticate", 'Bearer realm="baton"');
      const message = header === undefined && c.req.query("token") === undefined ? "this API needs the server's token" : "the token is not this server's";
      return c.json(errorBody("unauthorized", message, "use the URL `baton serve` printed (its ?token=), or send Authorization: Bearer TOKEN"), 401);
    }
    await next();
  };
}
