import pg from "pg";
import { BatonError } from "../../errors.ts";
import { displayUrl } from "../store-url.ts";

export { displayUrl };

/** How long connecting may take before the store counts as unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How long a follower keeps trying through connection errors (a server restarting) before it gives up. */
export const FOLLOW_PATIENCE_MS = 30_000;
/** The pause between a follower's tries. */
const FOLLOW_RETRY_MS = 250;

/** A pool for a store URL; nothing is connected until `checkConnection` or a query. */
export function makePool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, idleTimeoutMillis: 10_000 });
  // An idle client that loses its server (a restart) must not crash the process: the next query reconnects.
  pool.on("error", () => {});
  // A checked-out client that loses its server fails its query and also emits "error", which
  // pg-pool listens for only while the client is idle: unheard, it would be thrown as an uncaught
  // exception. The failed query is what the holder acts on (reconnecting, retrying its batch), and
  // releasing the broken client removes it from the pool.
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/** Connects once, turning what went wrong into one line that names it and its fix. */
export async function checkConnection(pool: pg.Pool, url: string): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw connectionFailure(error, url);
  }
}

/** A connection error as a BatonError, or undefined when it is something else. */
export function connectionFailure(error: unknown, url: string): BatonError {
  const where = displayUrl(url);
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "28P01" || code === "28000") {
    return new BatonError("store_auth_failed", `PostgreSQL refused the credentials of ${where} (${message})`, { hint: "check the user and password in the store URL" });
  }
  if (code === "3D000") {
    return new BatonError("store_database_missing", `${where}: ${message}`, { hint: "create the database (createdb), then run `baton store migrate`" });
  }
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EHOSTUNREACH" || code === "ETIMEDOUT" || /timeout/i.test(message)) {
    return new BatonError("store_unreachable", `cannot reach PostgreSQL at ${where} (${code ?? message})`, { hint: "check the host and port, and that the server is running" });
  }
  return new BatonError("store_unreachable", `cannot connect to ${where}: ${message}`, { hint: "check the store URL", cause: error });
}

/** Errors of the connection rather than of the statement: worth trying again. */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  const message = error instanceof Error ? error.message : "";
  return ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "57P01", "57P02", "57P03", "08006", "08003", "08001"].includes(code) || /Connection terminated|connection.*(closed|ended)|connection error and is not queryable|timeout exceeded when trying to connect/i.test(message);
}

/**
 * Runs a follower's read, again after connection errors (the server restarting, a dropped
 * connection) for up to `patienceMs` in a row; then (or on any other error) it throws, a lost
 * connection as `store_unreachable`. A read is repeated whole, so the follower's cursor moves
 * only on what it got: nothing is lost or repeated.
 */
export async function reconnecting<T>(url: string, read: () => Promise<T>, patienceMs = FOLLOW_PATIENCE_MS): Promise<T> {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (!isConnectionError(error)) throw error;
      if (Date.now() > deadline) throw connectionFailure(error, url);
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_RETRY_MS));
    }
  }
}
