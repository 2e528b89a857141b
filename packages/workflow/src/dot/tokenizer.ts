import type { SourcePos } from "../diagnostics/diagnostic.ts";
import { DotSyntaxError } from "./syntax-error.ts";
import { classifyWord, type Token } from "./tokens.ts";

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
/** DOT allows any character past ASCII in an identifier; Baton's dialect adds `.` and `-`. */
const isLetter = (c: string | undefined) => c !== undefined && (/[A-Za-z_]/.test(c) || c.charCodeAt(0) >= 0x80);
const isWordChar = (c: string | undefined) => isLetter(c) || isDigit(c) || c === ".";

/**
 * Splits DOT text into tokens, each with its line and column. Comments (`//`, `/* *\/`, `#`)
 * and whitespace are dropped. Unquoted words may hold `.` and `-` (`gpt-5.2`,
 * `human.default_choice`) but never end in `-`, so `a->b` and `a--b` still split. Quoted
 * strings may span lines and read `\n \t \" \\`; a backslash before a line break joins the
 * lines (as Graphviz does); any other backslash is kept, so a regular expression in a
 * condition survives.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  let line = 1;
  let lineStart = i;
  const here = (): SourcePos => ({ line, column: i - lineStart + 1, offset: i });
  const advance = (count = 1) => {
    for (let k = 0; k < count; k++) {
      if (text[i] === "\n") {
        line++;
        lineStart = i + 1;
      }
      i++;
    }
  };

  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (/\s/.test(c)) {
      advance();
    } else if (c === "#" || (c === "/" && next === "/")) {
      while (i < text.length && text[i] !== "\n") advance();
    } else if (c === "/" && next === "*") {
      const start = here();
      const end = text.indexOf("*/", i + 2);
      if (end < 0) throw new DotSyntaxError(start, "syntax", "a /* comment is never closed", "close it with */");
      advance(end + 2 - i);
    } else if (c === '"') {
      tokens.push(readString());
    } else if (c === "<") {
      tokens.push(readHtml());
    } else if (c === "-" && next === ">") {
      tokens.push({ kind: "->", text: "->", pos: here() });
      advance(2);
    } else if (c === "-" && next === "-") {
      tokens.push({ kind: "--", text: "--", pos: here() });
      advance(2);
    } else if ("{}[]=;,:+".includes(c)) {
      tokens.push({ kind: c as "{", text: c, pos: here() });
      advance();
    } else if (isWordChar(c) || (c === "-" && (isDigit(next) || next === "."))) {
      tokens.push(readWord());
    } else {
      throw new DotSyntaxError(here(), "syntax", `unexpected character "${c}"`, "quote the value (\"…\") or remove the character");
    }
  }
  tokens.push({ kind: "eof", text: "", pos: here() });
  return tokens;

  function readWord(): Token {
    const pos = here();
    const start = i;
    advance();
    while (i < text.length) {
      const c = text[i];
      if (isWordChar(c)) advance();
      else if (c === "-" && isWordChar(text[i + 1])) advance();
      else break;
    }
    const word = text.slice(start, i);
    return { kind: "id", text: word, literal: classifyWord(word), pos };
  }

  function readString(): Token {
    const pos = here();
    advance();
    let value = "";
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') {
        advance();
        return { kind: "string", text: value, pos };
      }
      if (c === "\\") {
        const escaped = text[i + 1];
        if (escaped === "n") value += "\n";
        else if (escaped === "t") value += "\t";
        else if (escaped === '"') value += '"';
        else if (escaped === "\\") value += "\\";
        else if (escaped === "\n") value += "";
        else if (escaped === "\r" && text[i + 2] === "\n") {
          advance();
        } else if (escaped === undefined) break;
        else value += `\\${escaped}`;
        advance(2);
        continue;
      }
      value += c;
      advance();
    }
    throw new DotSyntaxError(pos, "syntax", "a quoted string is never closed", 'close it with "');
  }

  /** An HTML string `<…>` (nesting counted), read only so the parser can refuse it where it stands. */
  function readHtml(): Token {
    const pos = here();
    const start = i;
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === "<") depth++;
      else if (c === ">") depth--;
      advance();
      if (depth === 0) break;
    }
    return { kind: "html", text: text.slice(start, i), pos };
  }
}
