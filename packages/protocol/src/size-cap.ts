import { z } from "zod";

export { serializeCapped, isTruncated, type TruncatedData } from "./core/size-cap.ts";

/**
 * The `data` of an event that was too large to keep. It replaces the data of an event of any
 * type, so the published JSON Schema accepts it in place of every type's own data.
 */
export const truncatedDataSchema = z.looseObject({
  truncated: z.literal(true),
  original_bytes: z.number().int().min(0),
  limit_bytes: z.number().int().min(1),
});
