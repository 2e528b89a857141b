import assert from "node:assert/strict";
import { test } from "node:test";
import { reportedModel, sameModel } from "./reported-model.ts";

const option = (id: string, currentValue: string, category = "model") => ({ id, name: id, category, type: "select", currentValue, options: [] });

test("the reported model is the model config option's value, else models.currentModelId", () => {
  assert.equal(reportedModel({ sessionId: "s", configOptions: [option("mode", "ask", "mode"), option("model", "gpt-5")], models: { currentModelId: "old" } }), "gpt-5");
  assert.equal(reportedModel({ sessionId: "s", configOptions: [option("llm", "sonnet")] }), "sonnet", "found by category");
  assert.equal(reportedModel({ sessionId: "s", configOptions: [option("llm", "a", "other"), option("m2", "b", "model")] }, "llm"), "a", "found by id first");
  assert.equal(reportedModel({ sessionId: "s", models: { currentModelId: "anthropic/claude" } }), "anthropic/claude");
  assert.equal(reportedModel({ sessionId: "s" }), undefined);
  assert.equal(reportedModel(null), undefined);
});

test("a model matches itself and the decorated ids agents report for it, nothing else", () => {
  assert.ok(sameModel("gpt-5", "gpt-5"));
  assert.ok(sameModel("gpt-5", "openai/gpt-5"), "OpenCode's provider/model");
  assert.ok(sameModel("gpt-5-codex", "gpt-5-codex[high]"), "codex-acp's model[effort]");
  assert.ok(sameModel("gpt-5-codex", "gpt-5-codex/medium"));
  assert.ok(!sameModel("gpt-5", "gpt-5-mini"));
  assert.ok(!sameModel("sonnet", "opus"));
  assert.ok(!sameModel("gpt-5", "openai/gpt-5-mini"));
});
