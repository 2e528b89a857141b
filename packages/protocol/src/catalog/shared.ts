import { z } from "zod";

/** Token counts. Every count is a non-negative integer; a missing count means "not reported". */
export const usageSchema = z.looseObject({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  cache_read_tokens: z.number().int().min(0).optional(),
  cache_write_tokens: z.number().int().min(0).optional(),
});
export type Usage = z.infer<typeof usageSchema>;

export const errorInfoSchema = z.looseObject({
  code: z.string().min(1),
  message: z.string(),
});
export type ErrorInfo = z.infer<typeof errorInfoSchema>;

/** A catalog entry: one event type, the schema of its `data`, and whether it is ephemeral. */
export type EventDefinition<T extends string, D extends z.ZodType> = {
  type: T;
  data: D;
  ephemeral: boolean;
  description: string;
};

export function defineEvent<const T extends string, D extends z.ZodType>(
  type: T,
  description: string,
  data: D,
  options: { ephemeral?: boolean } = {},
): EventDefinition<T, D> {
  return { type, data, description, ephemeral: options.ephemeral ?? false };
}
