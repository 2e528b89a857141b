import type { HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";

/** The server's hono app: on Node, `c.env` holds the raw request and response (`HttpBindings`). */
export type ServerEnv = { Bindings: HttpBindings };
export type ServerApp = Hono<ServerEnv>;
