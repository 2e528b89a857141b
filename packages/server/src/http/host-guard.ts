import type { MiddlewareHandler } from "hono";
import { errorBody } from "./api-errors.ts";

/** Host names every server answers to: the loopback names a local browser uses. */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

/**
 * Refuses requests whose Host header names a host not on the allow-list (403): a DNS
 * rebinding page (evil.example resolving to 127.0.0.1) reaches the server with its own name
 * in Host, and is stopped here even before it could guess a token. Static files included.
 */
export function hostGuard(allowed: readonly string[]): MiddlewareHandler {
  const names = new Set([...LOOPBACK_HOSTS, ...allowed].map((host) => normalizeHost(host)));
  return async (c, next) => {
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    const name = hostName(host);
    if (name === undefined || !names.has(name)) {
      return c.json(errorBody("forbidden_host", `host "${host}" is not allowed`, "open the server by the URL it printed, or start it with --allow-host NAME"), 403);
    }
    await next();
  };
}

/** The host part of a Host header, lower case, without the port; IPv6 keeps its brackets. */
export function hostName(header: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(header.trim());
  return match?.[1] === undefined ? undefined : match[1].toLowerCase();
}

/** A host as given on the command line (`::1`, `[::1]`, `Example.com`) in Host-header form. */
export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.includes(":") && !lower.startsWith("[") ? `[${lower}]` : lower;
}
