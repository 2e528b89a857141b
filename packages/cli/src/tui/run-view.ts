import { Box, Text, useInput } from "ink";
import { createElement as h, useEffect, useReducer, useRef, useState, type ReactElement } from "react";
import type { RunSummary } from "@baton/engine/store";
import { askedLog, contentFromPairs, describeField, foldAsked, foldQuestion, pairsFromLine, questionLog, type AskedLog, type PersonReply, type QuestionLog } from "@baton/engine/input";
import { applyEvent, definedFields, initialRunState, isFinalStatus, visibleText, type RunState } from "@baton/protocol/core";
import { formatCost, formatTokens } from "../render/style.ts";
import { callLine, gateLines, PANELS, planLines, RunPanels, stageLines, usageLines, type Panel, type ToolCallRow } from "./run-panels.ts";
import { typeKey, type TypedLine } from "./text-input.ts";
import { Timeline } from "./timeline.ts";
import type { TuiSource } from "./tui-source.ts";
import { colorOf, useSize } from "./tui-screen.ts";

/** At most one redraw this often while events pour in. */
const REDRAW_MS = 50;

/** A call's whole output, opened over the panels. */
type OpenOutput = { call: ToolCallRow; lines: string[] };

export type RunViewProps = {
  source: TuiSource;
  run: RunSummary;
  onBack: () => void;
  /** Rows the app's own lines (its help) take above the view. */
  reserved: number;
  /** Tells the app, as the key is handled, that a line is being typed: its own keys (q, ?) are then text. */
  onTyping: (typing: boolean) => void;
};

/**
 * A run's view: a line of facts, then one panel at a time (timeline, stages, plan, tools,
 * usage), each windowed to the screen, then a line saying what waits and the last action's
 * outcome. Keys act on the run: cancel, allow / deny the permission question that waits, reply
 * to / decline the agent's question, approve / reject / answer the gate, steer (a typed line),
 * open a call's whole output.
 */
export function RunView(props: RunViewProps): ReactElement {
  const timeline = useRef(new Timeline(props.run.number));
  const panels = useRef(new RunPanels());
  const state = useRef<RunState>(initialRunState());
  const questions = useRef<QuestionLog>(questionLog([]));
  const asked = useRef<AskedLog>(askedLog([]));
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const [panel, setPanel] = useState<Panel>("timeline");
  const [fromEnd, setFromEnd] = useState(0);
  const [top, setTop] = useState(0);
  const [selected, setSelected] = useState(0);
  // The line being typed is read by the key handler from a ref: keys typed faster than the
  // screen redraws each see the line as the previous key left it.
  const [typed, setTypedState] = useState<TypedLine | undefined>(undefined);
  const typedNow = useRef<TypedLine | undefined>(undefined);
  const [output, setOutput] = useState<OpenOutput | undefined>(undefined);
  const [note, setNote] = useState("");
  const size = useSize();
  const { onTyping } = props;
  const setTyped = (line: TypedLine | undefined) => {
    typedNow.current = line;
    onTyping(line !== undefined);
    setTypedState(line);
  };
  useEffect(() => () => onTyping(false), [onTyping]);
  useEffect(() => {
    const stop = new AbortController();
    let pending: NodeJS.Timeout | undefined;
    void (async () => {
      try {
        for await (const event of props.source.follow(props.run.id, stop.signal)) {
          timeline.current.add(event);
          panels.current.add(event);
          if (event.seq !== undefined) {
            applyEvent(state.current, event);
            foldQuestion(questions.current, event);
            foldAsked(asked.current, event);
          }
          pending ??= setTimeout(() => {
            pending = undefined;
            redraw();
          }, REDRAW_MS);
        }
      } catch (error) {
        if (!stop.signal.aborted) setNote(`the run's stream broke: ${messageOf(error)}`);
      }
    })();
    return () => {
      stop.abort();
      clearTimeout(pending);
    };
  }, [props.source, props.run.id]);

  const s = state.current;
  const label = `run ${props.run.number}`;
  const act = (what: () => Promise<void>, done: string) =>
    Promise.resolve()
      .then(what)
      .then(
        () => setNote(done),
        (error: unknown) => setNote(messageOf(error)),
      );
  const submit = (line: TypedLine, text: string) => {
    if (line.purpose === "steer") return act(() => props.source.steer(props.run.id, s, text), `sent to the agent of ${label}: it reaches it mid-turn if it takes notices, else when its turn ends`);
    if (line.purpose === "reply") {
      const question = asked.current.open.values().next().value;
      if (question === undefined) return setNote("no question of the agent's waits");
      return act(() => {
        const content = contentFromPairs(question.id, question.fields, pairsFromLine(question.fields, text)) as PersonReply["content"];
        return props.source.reply(props.run.id, s, asked.current, definedFields({ question: question.id, action: "accept" as const, content }));
      }, `answered question ${visibleText(question.id)}`);
    }
    return act(() => props.source.decide(props.run.id, s, { kind: "answer", value: text }), `answered the gate with "${visibleText(text)}"; the run goes on`);
  };
  const lines = panel === "tools" ? [] : panelLines(panel, s, panels.current);
  const waiting = questions.current.open.size;
  const askedNow = asked.current.open.values().next().value;
  const gate = s.workflow.gate;
  const height = Math.max(1, size.rows - props.reserved - 4 - (typed === undefined ? 0 : 1));
  const scrollable = panel === "timeline" ? timeline.current.length : panel === "tools" ? Math.max(1, panels.current.calls.length) : lines.length;
  const maxScroll = Math.max(0, scrollable - height);

  useInput((input, key) => {
    const line = typedNow.current;
    if (line !== undefined) {
      const next = typeKey(line, input, key);
      if ("abandon" in next) return setTyped(undefined);
      if ("submit" in next) {
        setTyped(undefined);
        return void submit(line, next.submit);
      }
      return setTyped(next);
    }
    if (output !== undefined) {
      const outputMax = Math.max(0, output.lines.length - height);
      if (key.escape || key.leftArrow || key.backspace || input === "o") return setOutput(undefined);
      if (key.upArrow || input === "k") setTop((n) => Math.max(0, n - 1));
      if (key.downArrow || input === "j") setTop((n) => Math.min(outputMax, n + 1));
      if (key.pageUp) setTop((n) => Math.max(0, n - height));
      if (key.pageDown) setTop((n) => Math.min(outputMax, n + height));
      return;
    }
    if (key.escape || key.leftArrow || key.backspace) return props.onBack();
    const chosen = key.tab ? PANELS[(PANELS.indexOf(panel) + (key.shift ? PANELS.length - 1 : 1)) % PANELS.length] : /^[1-5]$/.test(input) ? PANELS[Number(input) - 1] : undefined;
    if (chosen !== undefined) {
      setPanel(chosen);
      setTop(0);
      return;
    }
    if (panel === "timeline") {
      if (key.upArrow || input === "k") setFromEnd((n) => Math.min(maxScroll, n + 1));
      if (key.downArrow || input === "j") setFromEnd((n) => Math.max(0, n - 1));
      if (key.pageUp) setFromEnd((n) => Math.min(maxScroll, n + height));
      if (key.pageDown) setFromEnd((n) => Math.max(0, n - height));
      if (input === "G") setFromEnd(0);
    } else if (panel === "tools") {
      const last = Math.max(0, panels.current.calls.length - 1);
      const move = (to: number) => {
        const index = Math.min(last, Math.max(0, to));
        setSelected(index);
        setTop((t) => Math.min(index, Math.max(t, index - height + 1)));
      };
      if (key.upArrow || input === "k") move(selected - 1);
      if (key.downArrow || input === "j") move(selected + 1);
      if (key.pageUp) move(selected - height);
      if (key.pageDown) move(selected + height);
      if (input === "G") move(last);
      const row = panels.current.calls[selected];
      if ((key.return || input === "o") && row !== undefined) {
        // An output its event holds whole is shown from the event; a longer one is read from the trace store.
        void (row.output === undefined ? props.source.readOutput(props.run.id, row) : Promise.resolve(row.output)).then(
          (text) => {
            setTop(0);
            setOutput({ call: row, lines: visibleText(text, { keepNewlines: true }).split("\n") });
          },
          (error: unknown) => setNote(messageOf(error)),
        );
      }
    } else {
      if (key.upArrow || input === "k") setTop((n) => Math.max(0, n - 1));
      if (key.downArrow || input === "j") setTop((n) => Math.min(maxScroll, n + 1));
    }
    if (input === "c") {
      if (isFinalStatus(s.status)) return setNote(`${label} already ended (${s.status}): nothing to cancel`);
      void act(() => props.source.cancel(props.run.id), `asked ${label} to cancel`);
    }
    if (input === "a" || input === "d") {
      const call = questions.current.open.keys().next().value;
      if (call === undefined) return setNote("no permission question waits");
      const action = input === "a" ? "allow" : "deny";
      void act(() => props.source.answer(props.run.id, s, questions.current, call, action), `${action}: call ${visibleText(call)}`);
    }
    if (input === "r" || input === "x") {
      // Read now, not at the last redraw: the question that waits may have changed since.
      const question = asked.current.open.values().next().value;
      if (question === undefined) return setNote("no question of the agent's waits");
      if (input === "x") return void act(() => props.source.reply(props.run.id, s, asked.current, { question: question.id, action: "decline" }), `declined question ${visibleText(question.id)}`);
      setTyped({ prompt: `${visibleText(question.message).slice(0, 60)} ${question.fields.map(describeField).join(" ")}: `, purpose: "reply", text: "" });
    }
    if (input === "y" || input === "n") {
      if (gate === undefined) return setNote(`${label} waits at no gate`);
      const kind = input === "y" ? "approve" : "reject";
      void act(() => props.source.decide(props.run.id, s, { kind }), `${kind === "approve" ? "approved" : "rejected"} gate ${visibleText(gate.gate)}; the run goes on`);
    }
    if (input === "t") {
      if (gate === undefined) return setNote(`${label} waits at no gate`);
      setTyped({ prompt: `answer gate ${visibleText(gate.gate)}: `, purpose: "answer", text: "" });
    }
    if (input === "s") {
      if (s.status !== "running") return setNote(`${label} is ${s.status}: nothing to steer`);
      setTyped({ prompt: "steer the agent: ", purpose: "steer", text: "" });
    }
  });

  const stage = s.workflow.stages.at(-1);
  const facts = [
    label,
    s.status,
    stage === undefined ? undefined : `stage ${stage.stage}`,
    s.agent ?? props.run.agent,
    formatTokens(s.usage.input_tokens, s.usage.output_tokens),
    s.cost_usd === undefined ? undefined : formatCost(s.cost_usd),
  ].filter((fact) => fact !== undefined && fact !== "");
  const tabs = PANELS.map((name, index) => h(Text, { key: name, inverse: name === panel }, ` ${index + 1} ${name} `));
  const body =
    output !== undefined ? outputRows(output, top, height) : panel === "timeline" ? timeline.current.window(height, fromEnd) : panel === "tools" ? toolRows(panels.current, top, height, selected) : lines.slice(top, top + height);
  const status = statusLine({ waiting, asked: askedNow === undefined ? undefined : visibleText(askedNow.message), gate: gate === undefined ? undefined : gateLines(s)[0], note, panel, fromEnd, output: output !== undefined });
  return h(
    Box,
    { flexDirection: "column" },
    h(Text, { bold: true, color: colorOf(s.status), wrap: "truncate" }, facts.join(" · ")),
    h(Box, null, ...tabs),
    ...body.map((line, index) => {
      const chosen = panel === "tools" && output === undefined && top + index === selected;
      return h(Text, { key: index, wrap: "truncate", inverse: chosen }, line === "" ? " " : line);
    }),
    typed === undefined ? null : h(Text, { color: "cyan", wrap: "truncate-start" }, `${typed.prompt}${visibleText(typed.text)}▏`),
    h(Text, { color: waiting > 0 || askedNow !== undefined || gate !== undefined ? "yellow" : undefined, dimColor: waiting === 0 && askedNow === undefined && gate === undefined, wrap: "truncate" }, status),
  );
}

/** A small panel's lines; the timeline and the tools are drawn from their window only (a long run has many). */
function panelLines(panel: Panel, state: RunState, panels: RunPanels): string[] {
  if (panel === "stages") return stageLines(state);
  if (panel === "plan") return planLines(panels.plan);
  if (panel === "usage") return usageLines(state);
  return [];
}

/** The tools panel's rows on screen: the calls from `top`, the selected one marked. */
export function toolRows(panels: RunPanels, top: number, height: number, selected: number): string[] {
  if (panels.calls.length === 0) return ["no tool calls yet"];
  return panels.calls.slice(top, top + height).map((call, offset) => `${top + offset === selected ? "▸" : " "} ${callLine(call)}`);
}

function outputRows(output: OpenOutput, top: number, height: number): string[] {
  const title = `output of ${visibleText(output.call.call)} (${visibleText(output.call.tool)}) · ${output.lines.length} lines · ↑/↓ PgUp/PgDn scroll · Esc close`;
  return [title, ...output.lines.slice(top, top + Math.max(0, height - 1))];
}

function statusLine(facts: { waiting: number; asked: string | undefined; gate: string | undefined; note: string; panel: Panel; fromEnd: number; output: boolean }): string {
  const waits = [
    facts.waiting > 0 ? `${facts.waiting} question(s) wait: a allow · d deny` : "",
    facts.asked === undefined ? "" : `the agent asks: ${facts.asked} · r reply · x decline`,
    facts.gate === undefined ? "" : `${facts.gate} · y approve · n reject · t answer`,
  ].filter((part) => part !== "");
  // The last action's outcome first: it is what the person just asked about.
  if (facts.note !== "") waits.unshift(facts.note);
  if (waits.length > 0) return waits.join(" · ");
  if (facts.output) return "Esc close the output";
  const scrolled = facts.panel === "timeline" && facts.fromEnd > 0 ? ` (${facts.fromEnd} lines up, G: follow)` : "";
  const open = facts.panel === "tools" ? " · Enter open output" : "";
  return `Esc back · Tab panel · s steer · c cancel · ↑/↓ scroll${scrolled}${open} · ? help`;
}

function messageOf(error: unknown): string {
  if (error instanceof Error && "toLine" in error && typeof error.toLine === "function") return visibleText(String(error.toLine()));
  return visibleText(error instanceof Error ? error.message : String(error));
}
