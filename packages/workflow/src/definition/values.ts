import { DURATION } from "../dot/tokens.ts";
import type { ValueType } from "./attributes.ts";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A duration as the dialect writes one (`250ms 30s 15m 2h 1d`), in milliseconds; `0` alone is
 * zero (the dialect's "off"). Undefined for anything else.
 *
 * @example parseDotDuration("15m") // 900000
 */
export function parseDotDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "0") return 0;
  const match = DURATION.exec(trimmed);
  if (match === null) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

export type ValueResult = { ok: true; value: string | number | boolean } | { ok: false; message: string; fix: string };

/** Reads one attribute's text (quoted or not, the same) as the type the attribute has. */
export function readValue(key: string, text: string, type: ValueType): ValueResult {
  const bad = (what: string, fix: string): ValueResult => ({ ok: false, message: `${key}="${text}" is not ${what}`, fix });
  const trimmed = text.trim();
  switch (type) {
    case "string":
      return { ok: true, value: text };
    case "duration": {
      const ms = parseDotDuration(trimmed);
      return ms === undefined ? bad("a duration", `write a whole number and a unit: ${key}=250ms, 30s, 15m, 2h or 1d`) : { ok: true, value: ms };
    }
    case "count":
    case "positive": {
      const min = type === "count" ? 0 : 1;
      const ok = /^\d+$/.test(trimmed) && Number(trimmed) >= min && Number.isSafeInteger(Number(trimmed));
      return ok ? { ok: true, value: Number(trimmed) } : bad(min === 0 ? "a whole number (0 or more)" : "a whole number of 1 or more", `write ${key}=${min === 0 ? "3" : "1"}, a number without quotes or units`);
    }
    case "number": {
      const number = Number(trimmed);
      return trimmed !== "" && Number.isFinite(number) ? { ok: true, value: number } : bad("a number", `write a number, such as ${key}=10`);
    }
    case "boolean": {
      const lower = trimmed.toLowerCase();
      return lower === "true" || lower === "false" ? { ok: true, value: lower === "true" } : bad("true or false", `write ${key}=true or ${key}=false`);
    }
    default:
      return type.oneOf.includes(trimmed) ? { ok: true, value: trimmed } : bad(`one of ${type.oneOf.join(", ")}`, `write ${type.oneOf.map((v) => `${key}=${v}`).join(" or ")}`);
  }
}
