import type { SourcePos } from "../diagnostics/diagnostic.ts";

export type Punctuation = "{" | "}" | "[" | "]" | "=" | ";" | "," | ":" | "+" | "->" | "--";

/** How an unquoted word reads: the dialect's value types. A quoted value is always a string. */
export type LiteralKind = "integer" | "float" | "boolean" | "duration" | "word";

export type Token =
  | { kind: "id"; text: string; literal: LiteralKind; pos: SourcePos }
  | { kind: "string"; text: string; pos: SourcePos }
  | { kind: "html"; text: string; pos: SourcePos }
  | { kind: Punctuation; text: string; pos: SourcePos }
  | { kind: "eof"; text: ""; pos: SourcePos };

const INTEGER = /^-?\d+$/;
const FLOAT = /^-?(?:\d+\.\d*|\.\d+)$/;
/** `250ms 30s 15m 2h 1d`: a whole number and one unit, as the dialect writes durations. */
export const DURATION = /^(\d+)(ms|s|m|h|d)$/;

export function classifyWord(text: string): LiteralKind {
  if (INTEGER.test(text)) return "integer";
  if (FLOAT.test(text)) return "float";
  if (DURATION.test(text)) return "duration";
  if (/^(?:true|false)$/i.test(text)) return "boolean";
  return "word";
}

/** A token that is the unquoted word `keyword` (DOT keywords are case-insensitive). */
export function isKeyword(token: Token, keyword: "digraph" | "graph" | "strict" | "node" | "edge" | "subgraph"): boolean {
  return token.kind === "id" && token.text.toLowerCase() === keyword;
}

/** How a token is named in a "expected …, found …" message. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "the end of the file";
    case "string":
      return `the string "${token.text.length > 30 ? `${token.text.slice(0, 30)}…` : token.text}"`;
    case "html":
      return "an HTML string";
    case "id":
      return `"${token.text}"`;
    default:
      return `"${token.text}"`;
  }
}
