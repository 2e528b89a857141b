import { z } from "zod";
import { catalog, eventSchema } from "./catalog/index.ts";
import { envelopeSchema, PROTOCOL_VERSION } from "./envelope.ts";
import { truncatedDataSchema } from "./size-cap.ts";

/**
 * The JSON Schema (draft 2020-12) of the envelope and of every catalog type, generated from
 * the zod schemas so that the published contract cannot disagree with the code.
 */
export function buildJsonSchema(): Record<string, unknown> {
  const known = z.toJSONSchema(eventSchema, { target: "draft-2020-12", unrepresentable: "any" });
  const envelope = z.toJSONSchema(envelopeSchema, { target: "draft-2020-12", unrepresentable: "any" });
  const truncated = z.toJSONSchema(truncatedDataSchema, { target: "draft-2020-12", unrepresentable: "any" });
  delete known.$schema;
  delete envelope.$schema;
  delete truncated.$schema;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `https://baton.dev/schemas/events/v${PROTOCOL_VERSION}.json`,
    title: `Baton event, protocol v${PROTOCOL_VERSION}`,
    description:
      "One event envelope. An envelope of a catalog type must match that type's schema, or carry the truncation marker as its data when it was over the size cap; an envelope of an unknown type only the envelope's.",
    $defs: { envelope, known_event: known, truncated_data: truncated },
    allOf: [{ $ref: "#/$defs/envelope" }],
    anyOf: [
      { $ref: "#/$defs/known_event" },
      { type: "object", properties: { data: { $ref: "#/$defs/truncated_data" } } },
      { type: "object", properties: { type: { not: { enum: catalog.map((def) => def.type) } } } },
    ],
  };
}
