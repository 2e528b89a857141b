// @baton/client: `baton serve`'s HTTP API for hosts, in Node and in browsers.
export { BatonClient } from "./client.ts";
export type { AllowAnswer, ClientOptions, DenyAnswer, GateDecision, PermissionAnswer, RunSummary, StartRun } from "./client.ts";
/** The API's types, generated from its OpenAPI document (docs/openapi.json) by openapi-typescript. */
export type { components, operations, paths } from "./api/api-types.ts";
export { BatonApiError } from "./errors.ts";
export type { FollowItem, FollowOptions } from "./follow.ts";
export { parseSse } from "./sse/parse-sse.ts";
export type { SseFrame, SseItem } from "./sse/parse-sse.ts";
