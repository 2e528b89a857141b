import { COMPACTION_TOOL_TITLE } from "./compaction-watch.ts";
import { asArray, asObject, asString, type JsonObject } from "./json-access.ts";
import type { MapperContext } from "./mapper-context.ts";
import { ToolOutputFiles, type ToolOutputTrace } from "./tool-output-files.ts";
import { locationChanges, summarizeToolContent } from "./tool-output.ts";
import { TurnFileChanges } from "./turn-file-changes.ts";
import { locationPaths, parentCallOf, toolName } from "./update-fields.ts";

/** What a finished tool call was, for loop detection: the same tool, input and output again. */
export type FinishedToolCall = { call: string; tool: string; input: unknown; status: string; output: string };

/** A call that ended, and whether it was the agent reporting a compaction it made. */
export type EndedToolCall = { finished: FinishedToolCall; reportedCompaction: boolean };

/** Longest `tool.started.target` taken from a command: enough to recognize it in a list. */
const TARGET_COMMAND_CHARS = 500;

type OpenCall = { tool: string; kind: string; startedAt: number; locations: string[]; input: unknown; compaction: boolean };

/**
 * The tool calls of one session, paired by id from `tool_call` and `tool_call_update` updates:
 * `tool.started` when a call is first seen, `tool.completed` (after the `file.changed` it made)
 * when an update says it completed or failed.
 */
export class ToolCalls {
  readonly #context: MapperContext;
  readonly #open = new Map<string, OpenCall>();
  readonly #outputs: ToolOutputFiles;
  readonly #changes: TurnFileChanges;

  constructor(context: MapperContext, options: { trace: ToolOutputTrace | undefined; redactText: (text: string) => string }) {
    this.#context = context;
    this.#outputs = new ToolOutputFiles(options.trace, options.redactText);
    this.#changes = new TurnFileChanges(context);
  }

  /** Tool calls started and not yet finished. */
  get openCount(): number {
    return this.#open.size;
  }

  /** The tool of a call that is running, if it is. */
  toolOf(call: string): string | undefined {
    return this.#open.get(call)?.tool;
  }

  /** A main turn begins: the files it changes are reported afresh. */
  turnBegun(): void {
    this.#changes.turnBegun();
  }

  /** A `tool_call` or `tool_call_update`: what ended, if the call did. */
  update(update: JsonObject): EndedToolCall | undefined {
    const call = asString(update["toolCallId"]) ?? `c_${this.#open.size + 1}`;
    const open = this.#open.get(call) ?? this.#started(call, update);
    const locations = locationPaths(update["locations"]);
    if (locations.length > 0) open.locations = locations;
    if (COMPACTION_TOOL_TITLE.test(asString(update["title"]) ?? "")) open.compaction = true;
    const status = asString(update["status"]);
    if (status !== "completed" && status !== "failed") {
      this.#outputs.running(call, open.kind);
      return undefined;
    }
    this.#open.delete(call);
    const output = summarizeToolContent(update["content"], update["rawOutput"], (path) => this.#context.relative(path));
    // Only a call that completed changed anything; a refused or failed one reports no files.
    if (status === "completed") this.#changes.report([...output.files, ...locationChanges(open.kind, open.locations)]);
    const data: JsonObject = {
      session: this.#context.session(),
      call,
      tool: open.tool,
      status,
      is_error: status === "failed",
      duration_ms: this.#context.elapsed(open.startedAt),
      output_chars: output.text.length,
    };
    if (output.exitCode !== undefined) data["exit_code"] = output.exitCode;
    Object.assign(data, this.#outputs.finished(call, open.kind, output.text));
    this.#context.sink.append("tool.completed", data);
    return {
      finished: { call, tool: open.tool, input: open.input, status, output: output.text },
      reportedCompaction: open.compaction && status === "completed",
    };
  }

  /**
   * Ends every call still open when the session ends abnormally (agent exit, cancel), so that
   * every `tool.started` gets its end.
   */
  closeAll(status: "failed" | "cancelled"): void {
    for (const [call, open] of this.#open) {
      this.#outputs.abandoned(call);
      this.#context.sink.append("tool.completed", {
        session: this.#context.session(),
        call,
        tool: open.tool,
        status,
        is_error: true,
        duration_ms: this.#context.elapsed(open.startedAt),
        output_chars: 0,
      });
    }
    this.#open.clear();
  }

  #started(call: string, update: JsonObject): OpenCall {
    const kind = asString(update["kind"]) ?? "other";
    const tool = toolName(update, kind);
    const open: OpenCall = { tool, kind, startedAt: this.#context.now(), locations: [], input: update["rawInput"], compaction: false };
    this.#open.set(call, open);
    const data: JsonObject = { session: this.#context.session(), call, tool, kind };
    const title = asString(update["title"]);
    if (title !== undefined) data["title"] = title;
    if (update["rawInput"] !== undefined) data["input"] = update["rawInput"];
    const target = this.#targetOf(update);
    if (target !== undefined) data["target"] = target;
    const parent = parentCallOf(update);
    if (parent !== undefined) data["parent_call"] = parent;
    this.#context.sink.append("tool.started", data);
    return open;
  }

  #targetOf(update: JsonObject): string | undefined {
    const input = asObject(update["rawInput"]);
    const command = asString(input?.["command"]);
    if (command !== undefined) return command.length > TARGET_COMMAND_CHARS ? `${command.slice(0, TARGET_COMMAND_CHARS)}…` : command;
    const location = asString(asObject(asArray(update["locations"])[0])?.["path"]) ?? asString(input?.["path"]);
    return location === undefined ? undefined : this.#context.relative(location);
  }
}
