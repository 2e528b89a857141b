import { z } from "zod";

/** `*` (specificity 0), a shape such as `box` (1), `.class` (2), `#id` (3): the dialect's selectors. */
export type StyleSelector = { kind: "universal" } | { kind: "shape"; shape: string } | { kind: "class"; name: string } | { kind: "id"; id: string };

export type StyleDeclaration = { property: string; value: string };

/** One selector and its declarations; a rule written `a, b { … }` is two rules. */
export type StyleRule = { selector: StyleSelector; specificity: number; declarations: StyleDeclaration[] };

/** The properties a stylesheet may set: `agent` is Baton's; the others are the dialect's. */
export const STYLE_PROPERTIES = ["agent", "model", "provider", "reasoning_effort"] as const;
export type StyleProperty = (typeof STYLE_PROPERTIES)[number];

/** Properties of the dialect that Baton reads but does not act on. */
export const IGNORED_STYLE_PROPERTIES = ["backend"] as const;

export function specificityOf(selector: StyleSelector): number {
  return { universal: 0, shape: 1, class: 2, id: 3 }[selector.kind];
}

export function selectorText(selector: StyleSelector): string {
  if (selector.kind === "universal") return "*";
  if (selector.kind === "shape") return selector.shape;
  if (selector.kind === "class") return `.${selector.name}`;
  return `#${selector.id}`;
}

const selectorSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("universal") }),
  z.strictObject({ kind: z.literal("shape"), shape: z.string().min(1) }),
  z.strictObject({ kind: z.literal("class"), name: z.string().min(1) }),
  z.strictObject({ kind: z.literal("id"), id: z.string().min(1) }),
]);

export const styleRuleSchema = z.strictObject({
  selector: selectorSchema,
  specificity: z.number().int().min(0).max(3),
  declarations: z.array(z.strictObject({ property: z.string().min(1), value: z.string() })),
});
