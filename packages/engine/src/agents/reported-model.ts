import { asArray, asObject, asString } from "../acp/json-access.ts";

/**
 * The model a `session/new` (or `session/set_config_option`) result says the session uses: the
 * current value of its model config option (by `id`, else the one of category `model`), else
 * `models.currentModelId` of the older model API.
 */
export function reportedModel(result: unknown, optionId = "model"): string | undefined {
  const options = asArray(asObject(result)?.["configOptions"]).map(asObject);
  const option = options.find((o) => o?.["id"] === optionId) ?? options.find((o) => o?.["category"] === "model");
  const fromOption = asString(option?.["currentValue"]);
  if (fromOption !== undefined) return fromOption;
  return asString(asObject(asObject(result)?.["models"])?.["currentModelId"]);
}

/**
 * Whether the model an agent reports is the one asked for. Agents decorate ids: OpenCode
 * reports `provider/model`, codex-acp `model[effort]` or `model/effort`; asking for the bare
 * model (or the whole id) matches.
 *
 * @example sameModel("gpt-5", "openai/gpt-5") // => true
 */
export function sameModel(asked: string, reported: string): boolean {
  if (asked === reported) return true;
  return reported.endsWith(`/${asked}`) || reported.startsWith(`${asked}/`) || reported.startsWith(`${asked}[`);
}
