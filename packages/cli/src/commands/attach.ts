import { createInterface } from "node:readline";
import { BatonError, requestCancel } from "@baton/engine";
import {
  askedLog,
  checkPersonAnswer,
  checkReply,
  contentFromPairs,
  describeField,
  foldAsked,
  foldQuestion,
  leaveAnswer,
  leaveReply,
  newInputId,
  pairsFromLine,
  questionLog,
  requestInput,
  type AskedLog,
  type PersonAnswer,
  type PersonReply,
  type QuestionLog,
} from "@baton/engine/input";
import type { Store } from "@baton/engine/store";
import { applyEvent, initialRunState, isFinalType, type Envelope, type RunState } from "@baton/protocol/core";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { ProgressRenderer } from "../render/progress.ts";
import { visibleText } from "../render/terminal-text.ts";
import { ATTACH_HELP, oldestQuestion, parseAttachLine, type AttachLine } from "./attach-lines.ts";
import { whoAmI } from "./people-request.ts";
import { openProjectStore } from "../project-store.ts";

export type AttachOptions = { cancelOnExit?: boolean };

/** Where attach reads typed lines: the terminal's stdin unless a test gives another. */
export type AttachInput = NodeJS.ReadableStream;

/**
 * `baton attach RUN`: replays the run's human view and follows it live (the live view of
 * `baton run`). Typed lines steer the agent; a permission question for a person and a gate are
 * asked inline and answered with /allow, /deny, /approve… Ctrl-C detaches and leaves the run
 * going (or, with --cancel-on-exit, cancels it). Ends with the run's own exit code when it ends.
 */
export async function attachCommand(ctx: CliContext, ref: string, options: AttachOptions, input: AttachInput = process.stdin): Promise<number> {
  const project = await locateProject(ctx.cwd);
  await using store = await openProjectStore(ctx, project);
  const run = await store.resolveRun(ref);
  await store.recoverIfAbandoned(run.id);
  const session = new AttachSession(ctx, store, run.id, run.number);
  let last: Envelope | undefined;
  for await (const event of store.readRun(run.id, { after: 0 })) last = session.show(event, false);
  session.askWhatWaits();
  if (last !== undefined && isFinalType(last.type)) return exitOf(last);

  const detached = new AbortController();
  const signal = AbortSignal.any([ctx.signal, detached.signal]);
  const lines = createInterface({ input, terminal: false });
  lines.on("line", (line) => void session.onLine(line, () => detached.abort()).catch((error: unknown) => session.say(errorLine(error))));
  ctx.stdout.write(`— attached to run ${run.number}: type to steer the agent, /help for commands, Ctrl-C to detach —\n`);
  try {
    for await (const event of store.followRun(run.id, { after: session.state.last_seq, signal, ephemeral: true })) {
      last = session.show(event, true);
      if (event.seq !== undefined && isFinalType(event.type)) return exitOf(event);
    }
  } finally {
    lines.close();
    if (input === process.stdin) process.stdin.pause();
  }
  if (options.cancelOnExit === true) {
    await requestCancel(store.runDir(run.id), { by: "cli", reason: "baton attach --cancel-on-exit" });
    ctx.stdout.write(`\ndetached from run ${run.number}, and asked it to cancel (--cancel-on-exit)\n`);
    return EXIT.cancelled;
  }
  ctx.stdout.write(`\ndetached from run ${run.number}; it goes on without you: baton attach ${run.number} to come back\n`);
  return EXIT.succeeded;
}

/** What attach keeps of the run while it shows it: its state and the questions that wait. */
class AttachSession {
  readonly state: RunState = initialRunState();
  readonly #questions: QuestionLog = questionLog([]);
  readonly #asked: AskedLog = askedLog([]);
  readonly #renderer: ProgressRenderer;
  readonly #ctx: CliContext;
  readonly #store: Store;
  readonly #runId: string;
  readonly #number: number;

  constructor(ctx: CliContext, store: Store, runId: string, number: number) {
    this.#ctx = ctx;
    this.#store = store;
    this.#runId = runId;
    this.#number = number;
    this.#renderer = new ProgressRenderer(ctx.stdout, { run: number });
  }

  /** Renders an event and folds it; `live`: past the replay, so what it asks is asked now. */
  show(event: Envelope, live: boolean): Envelope {
    this.#renderer.render(event);
    if (event.seq === undefined) return event;
    applyEvent(this.state, event);
    foldQuestion(this.#questions, event);
    foldAsked(this.#asked, event);
    if (live && event.type === "question.asked" && this.#asked.open.has(String(event.data["id"]))) this.#askQuestion(String(event.data["id"]));
    if (live && event.type === "permission.requested" && this.#questions.open.has(String(event.data["call"]))) this.#askPermission(String(event.data["call"]));
    if (live && event.type === "run.paused") this.#askGate();
    return event;
  }

  /** After the replay: what waits for a person now. */
  askWhatWaits(): void {
    for (const call of this.#questions.open.keys()) this.#askPermission(call);
    for (const id of this.#asked.open.keys()) this.#askQuestion(id);
    if (this.state.status === "paused") this.#askGate();
  }

  say(line: string): void {
    this.#ctx.stdout.write(`${line}\n`);
  }

  async onLine(line: string, detach: () => void): Promise<void> {
    const parsed = parseAttachLine(line, this.#questions.open);
    if (parsed === undefined) return;
    await this.#act(parsed, detach);
  }

  async #act(line: AttachLine, detach: () => void): Promise<void> {
    const dir = this.#store.runDir(this.#runId);
    switch (line.kind) {
      case "help":
        return this.say(ATTACH_HELP);
      case "unknown":
        return this.say(`unknown command /${visibleText(line.word)}; /help lists them`);
      case "detach":
        return detach();
      case "cancel":
        await requestCancel(dir, { by: "cli", reason: "cancelled from baton attach" });
        return this.say(`asked run ${this.#number} to cancel`);
      case "steer": {
        if (this.state.status !== "running") return this.say(`run ${this.#number} is ${this.state.status}: nothing to steer${this.state.status === "paused" ? " (answer its gate: /approve, /reject, /answer)" : ""}`);
        await requestInput(dir, { id: newInputId(), by: whoAmI(this.#ctx), text: line.text });
        return;
      }
      case "permission": {
        const call = line.call ?? oldestQuestion(this.#questions.open)?.call;
        if (call === undefined) return this.say("no permission question waits");
        const answer: PersonAnswer = { call, action: line.action, who: whoAmI(this.#ctx), via: "terminal" };
        if (line.optionId !== undefined) answer.optionId = line.optionId;
        if (line.alwaysForRun === true) answer.alwaysForRun = true;
        if (line.reason !== undefined) answer.reason = line.reason;
        checkPersonAnswer(this.state, this.#questions, answer);
        if ((await leaveAnswer(dir, answer)) === "exists") this.say(`call ${call} was answered already; the first answer stands`);
        return;
      }
      case "reply": {
        const question = this.#asked.open.values().next().value;
        if (question === undefined) return this.say("no question of the agent's waits");
        const reply: PersonReply = { question: question.id, action: line.action, who: whoAmI(this.#ctx), via: "terminal" };
        if (line.action === "accept") reply.content = contentFromPairs(question.id, question.fields, pairsFromLine(question.fields, line.text)) as PersonReply["content"];
        else if (line.text !== "") reply.reason = line.text;
        const checked = checkReply(this.state, this.#asked, reply);
        if ((await leaveReply(dir, checked)) === "exists") this.say(`question ${question.id} was answered already; the first answer stands`);
        return;
      }
      case "gate": {
        if (this.state.status !== "paused" || this.state.workflow.gate === undefined) return this.say(`run ${this.#number} waits at no gate`);
        const { resumeCommand } = await import("./resume.ts");
        const quiet = { ...this.#ctx, stdout: nullStream() };
        await resumeCommand(quiet, this.#runId, { detach: true }, { kind: line.decision, value: line.value, comment: line.comment, by: whoAmI(this.#ctx), via: "terminal" });
        return this.say(`answered gate ${this.state.workflow.gate.gate} (${line.decision}); the run goes on`);
      }
    }
  }

  #askPermission(call: string): void {
    const question = this.#questions.open.get(call);
    if (question === undefined) return;
    const offered = question.options.map((option) => `${option.id} (${option.name})`).join(", ");
    this.say(`? run ${this.#number} asks you: may ${visibleText(question.tool)} run? call ${visibleText(call)} · /allow, /always (for this run), /deny [reason]${offered === "" ? "" : ` · options: ${visibleText(offered)}`}`);
  }

  #askQuestion(id: string): void {
    const question = this.#asked.open.get(id);
    if (question === undefined) return;
    const fields = question.fields.map(describeField).join(" ");
    this.say(`? run ${this.#number}'s agent asks you: ${visibleText(question.message)} (${visibleText(id)}) · /reply ${fields === "" ? "" : visibleText(fields)}, /decline [reason]`);
  }

  #askGate(): void {
    const gate = this.state.workflow.gate;
    if (gate === undefined) return;
    const options = gate.options.map((option) => (option.key === undefined ? option.label : `${option.label} (${option.key})`)).join(", ");
    this.say(`? run ${this.#number} waits at gate ${visibleText(gate.gate)}: /approve, /reject${options === "" ? "" : `, or /answer one of: ${visibleText(options)}`}${gate.freeform ? " (or free text)" : ""}`);
  }
}

/** The run's own exit code, from its final event. */
function exitOf(event: Envelope): number {
  if (event.type === "run.cancelled") return EXIT.cancelled;
  if (event.type === "run.failed") return EXIT.failed;
  if (event.data["status"] === "stopped") return event.data["stopped_by"] === "time" ? EXIT.timedOut : EXIT.stopped;
  return EXIT.succeeded;
}

function errorLine(error: unknown): string {
  return error instanceof BatonError ? visibleText(error.toLine()) : `could not do it: ${error instanceof Error ? visibleText(error.message) : String(error)}`;
}

function nullStream(): NodeJS.WriteStream {
  return { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
}
