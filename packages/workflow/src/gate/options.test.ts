import assert from "node:assert/strict";
import { test } from "node:test";
import { agent, defineWorkflow, edge, exit, human, start } from "../definition/builder.ts";
import { normalizeLabel, splitAccelerator } from "./labels.ts";
import { gateChoices, matchGateAnswer } from "./options.ts";

test("accelerators in the three forms of the dialect are split off", () => {
  assert.deepEqual(splitAccelerator("[A] Approve"), { key: "A", text: "Approve" });
  assert.deepEqual(splitAccelerator("R) Revise"), { key: "R", text: "Revise" });
  assert.deepEqual(splitAccelerator("S - Skip it"), { key: "S", text: "Skip it" });
  assert.deepEqual(splitAccelerator("  Plain words "), { key: undefined, text: "Plain words" });
  assert.deepEqual(splitAccelerator("Pre-merge"), { key: undefined, text: "Pre-merge" });
  assert.equal(normalizeLabel("[F] Fix It"), "fix it");
});

const definition = defineWorkflow("g", {
  nodes: [start(), human("gate", "Ship?"), agent("ship", "Ship"), agent("rework", "Rework"), agent("talk", "Talk"), exit()],
  edges: [
    edge("start", "gate"),
    edge("gate", "ship", { label: "[A] Approve" }),
    edge("gate", "rework", { label: "R) Revise" }),
    edge("gate", "talk"),
    edge("gate", "talk", { freeform: true }),
    edge("ship", "exit"),
    edge("rework", "exit"),
    edge("talk", "exit"),
  ],
});

test("a gate's options are its out-edges' labels in edge order, accelerators split off; free text has its own edge", () => {
  const choices = gateChoices(definition, "gate");
  assert.deepEqual(choices.options, [
    { text: "Approve", key: "A", label: "[A] Approve", to: "ship" },
    { text: "Revise", key: "R", label: "R) Revise", to: "rework" },
    { text: "talk", key: undefined, label: "talk", to: "talk" },
  ]);
  assert.deepEqual([choices.freeformTo, choices.acceptsText], ["talk", true]);
});

test("an answer picks an option by key, words or full label, case ignored; anything else picks none", () => {
  const choices = gateChoices(definition, "gate");
  assert.equal(matchGateAnswer(choices, "a")?.to, "ship");
  assert.equal(matchGateAnswer(choices, "REVISE")?.to, "rework");
  assert.equal(matchGateAnswer(choices, "[A] Approve")?.to, "ship");
  assert.equal(matchGateAnswer(choices, "maybe later"), undefined);
  assert.equal(matchGateAnswer(choices, "  "), undefined);
});

test("a gate with freeform=true on the node takes text without a freeform edge", () => {
  const text = defineWorkflow("t", { nodes: [start(), human("ask", "What next?", { freeform: true }), exit()], edges: [edge("start", "ask"), edge("ask", "exit", { label: "Done" })] });
  assert.deepEqual([gateChoices(text, "ask").acceptsText, gateChoices(text, "ask").freeformTo], [true, undefined]);
});
