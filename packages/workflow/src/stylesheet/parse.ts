import type { Severity } from "../diagnostics/diagnostic.ts";
import { IGNORED_STYLE_PROPERTIES, specificityOf, STYLE_PROPERTIES, type StyleDeclaration, type StyleRule, type StyleSelector } from "./rules.ts";

/** A finding in a stylesheet, at a 1-based line and column of the stylesheet's own text. */
export type StyleProblem = { line: number; column: number; severity: Severity; rule: string; message: string; fix: string };

export type ParsedStylesheet = { rules: StyleRule[]; problems: StyleProblem[] };

const IDENT = /^[A-Za-z0-9_-]+/;
const PROPERTY = /^[A-Za-z_][A-Za-z0-9_-]*/;

/**
 * Parses a `model_stylesheet`, a small subset of CSS:
 *
 *   *        { model: claude-haiku-4-5; }
 *   .coding  { agent: claude; model: sonnet; reasoning_effort: high }
 *   #review, .critical { model: gpt-5.2 }
 *
 * Comments are `/* … *\/`; the last `;` of a block may be left out; values may be quoted.
 * A syntax error stops the parse (rules before it are kept); an unknown property is a warning.
 *
 * @example parseStylesheet("* { model: m; }").rules // [{ selector: { kind: "universal" }, specificity: 0, declarations: [{ property: "model", value: "m" }] }]
 */
export function parseStylesheet(text: string): ParsedStylesheet {
  const rules: StyleRule[] = [];
  const problems: StyleProblem[] = [];
  let at = 0;
  const position = (index: number) => {
    const before = text.slice(0, index);
    const line = before.split("\n").length;
    return { line, column: index - before.lastIndexOf("\n") };
  };
  const fail = (index: number, message: string, fix: string) => problems.push({ ...position(index), severity: "error", rule: "stylesheet", message, fix });
  const skip = () => {
    for (;;) {
      while (at < text.length && /\s/.test(text[at] as string)) at++;
      if (!text.startsWith("/*", at)) return;
      const end = text.indexOf("*/", at + 2);
      at = end < 0 ? text.length : end + 2;
    }
  };

  for (skip(); at < text.length; skip()) {
    const selectors: StyleSelector[] = [];
    for (;;) {
      const selector = readSelector();
      if (selector === undefined) return { rules, problems };
      selectors.push(selector);
      skip();
      if (text[at] !== ",") break;
      at++;
      skip();
    }
    if (text[at] !== "{") {
      fail(at, `expected "{" after the selector, found ${found()}`, "write the rule as SELECTOR { property: value; }");
      return { rules, problems };
    }
    at++;
    const declarations = readDeclarations();
    if (declarations === undefined) return { rules, problems };
    for (const selector of selectors) rules.push({ selector, specificity: specificityOf(selector), declarations });
  }
  return { rules, problems };

  function found(): string {
    return at >= text.length ? "the end of the stylesheet" : JSON.stringify(text.slice(at, at + 10));
  }

  function readSelector(): StyleSelector | undefined {
    const start = at;
    if (text[at] === "*") {
      at++;
      return { kind: "universal" };
    }
    const sigil = text[at] === "." || text[at] === "#" ? (text[at] as string) : "";
    const name = IDENT.exec(text.slice(at + sigil.length))?.[0];
    if (name === undefined) {
      fail(start, `expected a selector (*, SHAPE, .class or #id), found ${found()}`, "start each rule with *, a shape, .class or #id");
      return undefined;
    }
    at += sigil.length + name.length;
    if (sigil === ".") return { kind: "class", name };
    if (sigil === "#") return { kind: "id", id: name };
    return { kind: "shape", shape: name };
  }

  function readDeclarations(): StyleDeclaration[] | undefined {
    const declarations: StyleDeclaration[] = [];
    for (skip(); text[at] !== "}"; skip()) {
      if (at >= text.length) {
        fail(at, "a rule's { is never closed", "close the rule with }");
        return undefined;
      }
      const propertyAt = at;
      const property = PROPERTY.exec(text.slice(at))?.[0];
      if (property === undefined) {
        fail(at, `expected a property name, found ${found()}`, "write property: value;");
        return undefined;
      }
      at += property.length;
      skip();
      if (text[at] !== ":") {
        fail(at, `expected ":" after "${property}", found ${found()}`, `write ${property}: value;`);
        return undefined;
      }
      at++;
      skip();
      const valueAt = at;
      const value = readValue();
      if (value === "") {
        fail(valueAt, `"${property}" has no value`, `write ${property}: value;`);
        return undefined;
      }
      checkProperty(property, propertyAt);
      declarations.push({ property, value });
      skip();
      if (text[at] === ";") at++;
    }
    at++;
    return declarations;
  }

  function readValue(): string {
    if (text[at] === '"' || text[at] === "'") {
      const quote = text[at] as string;
      const end = text.indexOf(quote, at + 1);
      const value = text.slice(at + 1, end < 0 ? text.length : end);
      at = end < 0 ? text.length : end + 1;
      return value;
    }
    const start = at;
    while (at < text.length && !";}\n".includes(text[at] as string)) at++;
    return text.slice(start, at).trim();
  }

  function checkProperty(property: string, index: number): void {
    if ((STYLE_PROPERTIES as readonly string[]).includes(property)) return;
    const ignored = (IGNORED_STYLE_PROPERTIES as readonly string[]).includes(property);
    problems.push({
      ...position(index),
      severity: "warning",
      rule: ignored ? "ignored-attribute" : "unknown-attribute",
      message: ignored ? `stylesheet property "${property}" has no effect in Baton` : `unknown stylesheet property "${property}"`,
      fix: ignored ? "remove it" : `use one of ${STYLE_PROPERTIES.join(", ")}`,
    });
  }
}
