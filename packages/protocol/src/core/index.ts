// @baton/protocol/core: the protocol without its schemas (no zod), for code that writes or
// reads logs and must stay small. Everything here is also exported by @baton/protocol.
export * from "./constants.ts";
export * from "./event-types.ts";
export * from "./size-cap.ts";
export * from "./fold.ts";
export * from "./catalog-fold.ts";
export * from "./defined-fields.ts";
export * from "./stage-fold.ts";
export * from "./open-starts.ts";
export * from "./visible-text.ts";
export * from "./line-splitter.ts";
export * from "./tool-output.ts";
