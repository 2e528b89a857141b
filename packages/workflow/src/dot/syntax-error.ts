import type { SourcePos } from "../diagnostics/diagnostic.ts";

/**
 * A file the parser cannot read or refuses, at one place. Thrown inside the tokenizer and the
 * parser only; `parseDot` turns it into a Diagnostic value.
 */
export class DotSyntaxError extends Error {
  readonly pos: SourcePos;
  readonly rule: string;
  readonly fix: string;

  constructor(pos: SourcePos, rule: string, message: string, fix: string) {
    super(message);
    this.name = "DotSyntaxError";
    this.pos = pos;
    this.rule = rule;
    this.fix = fix;
  }
}
