import * as acp from "@agentclientprotocol/sdk";
import type { SessionSetup } from "../agents/agent-launch.ts";
import { reportedModel, sameModel } from "../agents/reported-model.ts";
import { asArray, asObject, asString } from "./json-access.ts";
import { errorText } from "./error-text.ts";
import { definedFields } from "@baton/protocol/core";

/** What setting up a session gave: the model the agent reports, or why the run cannot go on. */
export type SetupOutcome = { model?: string; failure?: { code: string; message: string } };

/**
 * After `session/new`, before the prompt: switch to the entry's session mode, deliver `--model`
 * the way the entry says, and check that the agent reports the model asked for. An agent that
 * reports another model fails the run (`model_mismatch`): a run on the wrong model is worse
 * than no run.
 */
export async function setUpSession(ctx: acp.ClientContext, sessionId: string, created: unknown, setup: SessionSetup | undefined): Promise<SetupOutcome> {
  if (setup?.sessionMode !== undefined) {
    const failure = await setMode(ctx, sessionId, created, setup.sessionMode);
    if (failure) return { failure };
  }
  const initial = reportedModel(created, setup?.modelChoice.via === "config_option" ? setup.modelChoice.id : undefined);
  const asked = setup?.model;
  if (setup === undefined || asked === undefined) return definedFields({ model: initial });

  let reported = initial;
  const choice = setup.modelChoice;
  try {
    if (choice.via === "config_option") {
      const offered = asArray(asObject(created)?.["configOptions"]).some((option) => asObject(option)?.["id"] === choice.id);
      if (!offered) {
        return { ...modelField(initial), failure: { code: "model_unsupported", message: `the agent offers no session config option "${choice.id}" to choose the model "${asked}" with` } };
      }
      const result = await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: choice.id, value: asked });
      reported = reportedModel(result, choice.id) ?? asked;
    } else if (choice.via === "session_model") {
      await ctx.request("session/set_model", { sessionId, modelId: asked });
      reported = asked;
    }
  } catch (error) {
    return { ...modelField(initial), failure: { code: "model_rejected", message: `the agent refused model "${asked}": ${errorText(error)}` } };
  }
  if (reported !== undefined && !sameModel(asked, reported)) {
    return { model: reported, failure: { code: "model_mismatch", message: `asked for model "${asked}" but the agent reports model "${reported}"` } };
  }
  return modelField(reported);
}

async function setMode(ctx: acp.ClientContext, sessionId: string, created: unknown, mode: string): Promise<SetupOutcome["failure"]> {
  const modes = asObject(asObject(created)?.["modes"]);
  const available = asArray(modes?.["availableModes"]).map((m) => asString(asObject(m)?.["id"]));
  try {
    if (available.includes(mode)) {
      if (modes?.["currentModeId"] !== mode) await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: mode });
      return undefined;
    }
    const option = asArray(asObject(created)?.["configOptions"]).map(asObject).find((o) => o?.["category"] === "mode");
    const id = asString(option?.["id"]);
    if (id !== undefined && selectValues(option).includes(mode)) {
      await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: id, value: mode });
      return undefined;
    }
  } catch (error) {
    return { code: "agent_start_failed", message: `the agent refused session mode "${mode}": ${errorText(error)}` };
  }
  const offered = available.filter((m) => m !== undefined);
  return { code: "session_mode_unsupported", message: `the agent offers no session mode "${mode}"${offered.length > 0 ? ` (it offers ${offered.join(", ")})` : ""}` };
}

/** The values a select config option offers, flat or in groups. */
function selectValues(option: Record<string, unknown> | undefined): string[] {
  return asArray(option?.["options"]).flatMap((entry) => {
    const item = asObject(entry);
    return item?.["group"] !== undefined ? asArray(item["options"]).map((o) => asString(asObject(o)?.["value"])) : [asString(item?.["value"])];
  }).filter((value): value is string => value !== undefined);
}

function modelField(model: string | undefined): { model?: string } {
  return definedFields({ model });
}


/**
 * Switches a live session to `model` (the fallback after an overload): through the entry's
 * config option or `session/set_model`. A model given by environment cannot change mid-session.
 * Returns the model the agent reports afterwards, or why the switch failed.
 */
export async function switchModel(ctx: acp.ClientContext, sessionId: string, model: string, choice: SessionSetup["modelChoice"] | undefined): Promise<{ model?: string; failure?: string }> {
  try {
    if (choice?.via === "config_option") {
      const result = await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: choice.id, value: model });
      const reported = reportedModel(result, choice.id);
      if (reported === undefined) return { failure: "the agent did not report its model after the switch" };
      return sameModel(model, reported) ? { model: reported } : { model: reported, failure: `the agent reports model "${reported}" after the switch` };
    }
    if (choice?.via === "session_model") {
      await ctx.request("session/set_model", { sessionId, modelId: model });
      return { model };
    }
  } catch (error) {
    return { failure: `the agent refused model "${model}": ${errorText(error)}` };
  }
  return { failure: `the agent takes its model ${choice?.via === "env" ? "from its environment, which cannot change mid-session" : "in no way Baton can change"}` };
}
