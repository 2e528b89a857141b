import type { WorkflowDefinition } from "../definition/schema.ts";
import { normalizeLabel, splitAccelerator } from "./labels.ts";

/** One choice a human gate offers: its words, its accelerator key, the full edge label, where it leads. */
export type GateOption = { text: string; key: string | undefined; label: string; to: string };

/** What a gate asks: its options in edge order, and whether (and where) free text goes. */
export type GateChoices = { options: GateOption[]; freeformTo: string | undefined; acceptsText: boolean };

/**
 * A human gate's choices, from its out-edges: each labelled edge is an option (an unlabelled
 * one is offered by its target's id), accelerators split off; an edge with `freeform=true`
 * takes free text. The first option is what `--auto-approve` picks.
 *
 * @example gateChoices(definition, "approve").options.map((o) => o.text) // ["Approve", "Revise"]
 */
export function gateChoices(definition: WorkflowDefinition, gateId: string): GateChoices {
  const out = definition.edges.filter((edge) => edge.from === gateId);
  const options = out
    .filter((edge) => !edge.freeform)
    .map((edge) => {
      const label = edge.label ?? edge.to;
      const { key, text } = splitAccelerator(label);
      return { text, key, label, to: edge.to };
    });
  const freeformTo = out.find((edge) => edge.freeform)?.to;
  const gate = definition.nodes.find((node) => node.id === gateId);
  return { options, freeformTo, acceptsText: freeformTo !== undefined || gate?.freeform === true };
}

/**
 * The option an answer picks: its accelerator key (`A`), its words (`approve`), or its full
 * label, case ignored. Undefined when it picks none (free text, or an unknown choice).
 */
export function matchGateAnswer(choices: GateChoices, answer: string): GateOption | undefined {
  const wanted = answer.trim().toLowerCase();
  if (wanted === "") return undefined;
  return (
    choices.options.find((option) => option.key !== undefined && option.key.toLowerCase() === wanted) ??
    choices.options.find((option) => normalizeLabel(option.label) === normalizeLabel(answer))
  );
}
