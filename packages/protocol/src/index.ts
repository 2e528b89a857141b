export * from "./envelope.ts";
export * from "./catalog/index.ts";
export * from "./json-schema.ts";
export * from "./ndjson-reader.ts";
export * from "./size-cap.ts";
export * from "./core/fold.ts";
export * from "./core/open-starts.ts";
export * from "./core/visible-text.ts";
