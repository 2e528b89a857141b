import { EVENT_TYPE_PATTERN, isEphemeralType, isFinalType, PROTOCOL_VERSION } from "@baton/protocol/core";
import type { AppendBatch } from "./append-batch.ts";
import { capEnvelope } from "./cap-envelope.ts";
import { StoredEnvelope } from "./stored-envelope.ts";

/** What a writer needs to know about an event type: checked once, then looked up per event. */
export type TypeFacts = {
  readonly ephemeral: boolean;
  readonly final: boolean;
  /** `,"type":<the type as JSON>,"data":` as UTF-8: the part of a line between `at` and the data. */
  readonly typeBytes: Uint8Array;
};

/**
 * Serializes one run's durable envelopes into a batch from cached, already encoded parts:
 * `{"v":1,"run":"<id>","seq":` (one per run), the seq's digits, `,"at":"<stamp>"` (one per
 * millisecond), `,"type":…,"data":` (one per type), the data, `}`. Only the data is
 * stringified and encoded per event; stringifying the whole envelope, then encoding that
 * line, did the fixed fields again for every event and was the writer's largest cost.
 *
 * The bytes are exactly `JSON.stringify(envelope)` (same keys, same order: v, run, seq, at,
 * type, stage when there is one, data; the fixed parts are ASCII). An event whose line is over the cap takes the
 * protocol's own `serializeCapped` (through capEnvelope), so the cap's rule lives in one place.
 */
export class EnvelopeLines {
  readonly #head: Uint8Array;
  readonly #limitBytes: number;
  readonly #types = new Map<string, TypeFacts>();
  #at = "";
  #atBytes: Uint8Array = new Uint8Array(0);

  constructor(runId: string, limitBytes: number) {
    this.#head = Buffer.from(`{"v":${PROTOCOL_VERSION},"run":${JSON.stringify(runId)},"seq":`);
    this.#limitBytes = limitBytes;
  }

  /** The facts of `type`; a name that is not an event type is a TypeError. */
  facts(type: string): TypeFacts {
    let facts = this.#types.get(type);
    if (facts === undefined) {
      if (!EVENT_TYPE_PATTERN.test(type)) throw new TypeError(`${JSON.stringify(type)} is not an event type`);
      facts = { ephemeral: isEphemeralType(type), final: isFinalType(type), typeBytes: Buffer.from(`,"type":${JSON.stringify(type)},"data":`) };
      this.#types.set(type, facts);
    }
    return facts;
  }

  /**
   * Adds the line of a durable event to `batch`, `json` being its data serialized, and
   * returns the envelope as stored: the event itself, or one whose data is the truncation
   * marker when its line is over the cap.
   */
  add(batch: AppendBatch, event: StoredEnvelope, json: string | undefined, facts: TypeFacts): StoredEnvelope {
    if (json !== undefined) {
      if (event.at !== this.#at) {
        this.#at = event.at;
        this.#atBytes = Buffer.from(`,"at":${JSON.stringify(event.at)}`);
      }
      // An event inside a workflow stage carries its scope between type and data, as the envelope orders it.
      const typeBytes = event.stage === undefined ? facts.typeBytes : Buffer.from(`,"type":${JSON.stringify(event.type)},"stage":${JSON.stringify(event.stage)},"data":`);
      const fixed = this.#head.byteLength + digitCount(event.seq) + this.#atBytes.byteLength + typeBytes.byteLength + 1;
      // A UTF-16 unit is at most 3 UTF-8 bytes: most lines are proved small without counting.
      if (fixed + json.length * 3 <= this.#limitBytes || fixed + Buffer.byteLength(json) <= this.#limitBytes) {
        batch.addEnvelope(this.#head, event.seq, this.#atBytes, typeBytes, json, event);
        return event;
      }
    }
    const { line, stored } = capEnvelope(event, this.#limitBytes);
    const capped = stored === event ? event : new StoredEnvelope(stored.v, stored.run, event.seq, stored.at, stored.type, stored.data, event.durable, event.stage);
    batch.add(line, capped);
    return capped;
  }
}

/** Decimal digits of a positive safe integer. */
export function digitCount(value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  return digits;
}
