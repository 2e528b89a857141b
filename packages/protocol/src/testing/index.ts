export * from "./temp-root.ts";
export * from "./sample-events.ts";
