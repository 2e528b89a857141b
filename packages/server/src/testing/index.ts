// @baton/server/testing: fixtures of the server's tests, its CLI end-to-end tests and its benchmark.
export * from "./sse-reader.ts";
export * from "./server-fixtures.ts";
