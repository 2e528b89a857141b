import type { HttpBindings } from "@hono/node-server";
import type { OpenAPIHono } from "@hono/zod-openapi";

/** The server's hono app: on Node, `c.env` holds the raw request and response (`HttpBindings`). */
export type ServerEnv = { Bindings: HttpBindings };
/** Routes are declared with their schemas (`app.openapi(createRoute(…), handler)`): the OpenAPI document is made from them. */
export type ServerApp = OpenAPIHono<ServerEnv>;
