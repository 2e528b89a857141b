import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import type { DotAttr, DotGraph, DotNodeRef, DotStatement, DotSubgraph, DotValue } from "./ast.ts";
import { DotSyntaxError } from "./syntax-error.ts";
import { tokenize } from "./tokenizer.ts";
import { describeToken, isKeyword, type Token } from "./tokens.ts";

export type DotParseResult = { ok: true; graph: DotGraph } | { ok: false; diagnostic: Diagnostic };

/**
 * Parses one workflow file of the DOT dialect. A file it cannot read, or a construct Baton
 * refuses (`strict`, an undirected graph or edge, an HTML string, a port), is one error
 * diagnostic at the place it stands; parsing stops there.
 *
 * @example parseDot('digraph { start -> exit }', "wf.dot") // { ok: true, graph: { name: undefined, body: [...] } }
 */
export function parseDot(text: string, file: string): DotParseResult {
  try {
    return { ok: true, graph: new Parser(tokenize(text)).graph() };
  } catch (error) {
    if (error instanceof DotSyntaxError) return { ok: false, diagnostic: diagnostic(file, error.pos, "error", error.rule, error.message, error.fix) };
    throw error;
  }
}

/** Recursive descent over the token list; one method per rule of the grammar. */
class Parser {
  #tokens: Token[];
  #at = 0;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  graph(): DotGraph {
    const first = this.#peek();
    if (isKeyword(first, "strict")) {
      throw new DotSyntaxError(first.pos, "strict-graph", "strict graphs are refused: strict drops repeated edges, and a workflow means every edge it has", "remove `strict`");
    }
    if (isKeyword(first, "graph")) {
      throw new DotSyntaxError(first.pos, "undirected-graph", "an undirected graph is refused: a workflow's edges have a direction", "write `digraph NAME {` instead of `graph NAME {`");
    }
    if (!isKeyword(first, "digraph")) {
      throw new DotSyntaxError(first.pos, "syntax", `a workflow starts with \`digraph\`, not ${describeToken(first)}`, "start the file with `digraph NAME {`");
    }
    this.#next();
    const name = this.#peek().kind === "id" || this.#peek().kind === "string" ? this.#id() : undefined;
    const body = this.#block();
    const rest = this.#peek();
    if (rest.kind !== "eof") throw new DotSyntaxError(rest.pos, "syntax", `${describeToken(rest)} after the graph's closing }`, "keep one digraph per file, and nothing after its }");
    return { name: name?.text, pos: first.pos, body };
  }

  #block(): DotStatement[] {
    this.#expect("{", "to open the graph's body");
    const body: DotStatement[] = [];
    while (this.#peek().kind !== "}") {
      if (this.#peek().kind === "eof") throw new DotSyntaxError(this.#peek().pos, "syntax", "the file ends inside a { … } block", "close every { with }");
      body.push(this.#statement());
      if (this.#peek().kind === ";") this.#next();
    }
    this.#next();
    return body;
  }

  #statement(): DotStatement {
    const token = this.#peek();
    if (isKeyword(token, "graph") || isKeyword(token, "node") || isKeyword(token, "edge")) {
      if (this.#peekAt(1).kind === "[") {
        this.#next();
        return { kind: "attr_stmt", target: token.text.toLowerCase() as "graph", attrs: this.#attrLists(), pos: token.pos };
      }
      throw new DotSyntaxError(token.pos, "syntax", `\`${token.text}\` is a keyword: it must be followed by [attributes]`, `write \`${token.text.toLowerCase()} [key=value]\`, or quote it to use it as a name`);
    }
    if (this.#peek().kind === "id" || this.#peek().kind === "string" || this.#peek().kind === "html") {
      if (this.#peekAt(1).kind === "=" && !isKeyword(token, "subgraph")) {
        const attr = this.#attr();
        return { kind: "assign", attr };
      }
    }
    const operand = this.#operand();
    if (this.#peek().kind === "->" || this.#peek().kind === "--") return this.#edge(operand);
    if (operand.kind === "subgraph") return operand;
    return { kind: "node", id: operand.id, pos: operand.pos, attrs: this.#attrLists() };
  }

  #edge(first: DotNodeRef | DotSubgraph): DotStatement {
    const operands = [first];
    while (this.#peek().kind === "->" || this.#peek().kind === "--") {
      const arrow = this.#next();
      if (arrow.kind === "--") throw new DotSyntaxError(arrow.pos, "undirected-edge", "an undirected edge `--` is refused: a workflow's edges have a direction", "write `->`");
      operands.push(this.#operand());
    }
    return { kind: "edge", operands, attrs: this.#attrLists(), pos: first.pos };
  }

  #operand(): DotNodeRef | DotSubgraph {
    const token = this.#peek();
    if (isKeyword(token, "subgraph") || token.kind === "{") return this.#subgraph();
    const id = this.#id();
    if (id.text === "") throw new DotSyntaxError(id.pos, "syntax", 'a node needs a name, not ""', "give the node a name");
    if (this.#peek().kind === ":") {
      throw new DotSyntaxError(this.#peek().pos, "port", `a port on node "${id.text}" is refused: Baton's edges join nodes, not ports`, `remove the port, write "${id.text}" alone`);
    }
    return { kind: "node_ref", id: id.text, pos: id.pos };
  }

  #subgraph(): DotSubgraph {
    const pos = this.#peek().pos;
    let id: string | undefined;
    if (isKeyword(this.#peek(), "subgraph")) {
      this.#next();
      if (this.#peek().kind === "id" || this.#peek().kind === "string") id = this.#id().text;
    }
    return { kind: "subgraph", id, pos, body: this.#block() };
  }

  #attrLists(): DotAttr[] {
    const attrs: DotAttr[] = [];
    while (this.#peek().kind === "[") {
      this.#next();
      while (this.#peek().kind !== "]") {
        if (this.#peek().kind === "eof") throw new DotSyntaxError(this.#peek().pos, "syntax", "the file ends inside an attribute list [ … ]", "close the list with ]");
        attrs.push(this.#attr());
        if (this.#peek().kind === "," || this.#peek().kind === ";") this.#next();
      }
      this.#next();
    }
    return attrs;
  }

  #attr(): DotAttr {
    const key = this.#id();
    this.#expect("=", `after the attribute name "${key.text}"`, `write ${key.text}=value`);
    return { key: key.text, keyPos: key.pos, value: this.#value() };
  }

  /** A value: a word, or quoted strings joined by `+` (DOT's concatenation). */
  #value(): DotValue {
    const first = this.#id();
    if (first.literal !== "string") return first;
    let text = first.text;
    while (this.#peek().kind === "+" && this.#peekAt(1).kind === "string") {
      this.#next();
      text += this.#next().text;
    }
    return { ...first, text };
  }

  #id(): DotValue {
    const token = this.#next();
    if (token.kind === "id") return { text: token.text, literal: token.literal, pos: token.pos };
    if (token.kind === "string") return { text: token.text, literal: "string", pos: token.pos };
    if (token.kind === "html") {
      throw new DotSyntaxError(token.pos, "html-label", "an HTML string <…> is refused: Baton reads labels and prompts as text", 'write the value as a quoted string "…"');
    }
    throw new DotSyntaxError(token.pos, "syntax", `expected a name or a value, found ${describeToken(token)}`, 'write a name, a number or a quoted string "…" here');
  }

  #expect(kind: Token["kind"], why: string, fix = `write "${kind}" here`): Token {
    const token = this.#next();
    if (token.kind !== kind) throw new DotSyntaxError(token.pos, "syntax", `expected "${kind}" ${why}, found ${describeToken(token)}`, fix);
    return token;
  }

  #peek(): Token {
    return this.#peekAt(0);
  }

  #peekAt(ahead: number): Token {
    return this.#tokens[Math.min(this.#at + ahead, this.#tokens.length - 1)] as Token;
  }

  #next(): Token {
    const token = this.#peek();
    if (this.#at < this.#tokens.length - 1) this.#at++;
    return token;
  }
}
