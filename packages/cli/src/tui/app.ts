import { Box, Text, useApp, useInput } from "ink";
import { createElement as h, useCallback, useEffect, useRef, useState, type ReactElement } from "react";
import type { RunSummary } from "@baton/engine/store";
import { visibleText } from "@baton/protocol/core";
import { headerLine, rowLine, runRow } from "./run-rows.ts";
import { RunView } from "./run-view.ts";
import type { TuiSource } from "./tui-source.ts";
import { colorOf, useSize } from "./tui-screen.ts";

/** How often the run list is read again. */
const LIST_REFRESH_MS = 1_000;

export const HELP_LINES = [
  "run list: ↑/↓ or j/k move · Enter open · q quit · ? this help",
  "run view: Tab (or 1-5) panel: timeline, stages, plan, tools, usage · ↑/↓ PgUp/PgDn scroll · G follow · Esc back",
  "          tools: ↑/↓ pick a call, Enter (or o) open its whole output, Esc close it",
  "          c cancel · a allow / d deny the permission question that waits · y approve / n reject / t answer the gate",
  "          r reply to the agent's question (FIELD=VALUE …, Enter send) · x decline it",
  "          s steer: type a line for the agent, Enter send, Esc drop it · q quit",
];

/** `baton tui`: a live run list, and a run's view with its panels; keyboard only. */
export function TuiApp(props: { source: TuiSource; now?: () => number }): ReactElement {
  const [open, setOpen] = useState<RunSummary | undefined>(undefined);
  const [help, setHelp] = useState(false);
  // Set by the run view as it takes a key: while a line is typed, q and ? are text.
  const typing = useRef(false);
  const setTyping = useCallback((now: boolean) => void (typing.current = now), []);
  const app = useApp();
  useInput((input) => {
    if (typing.current) return;
    if (input === "?") setHelp((shown) => !shown);
    if (input === "q") app.exit();
  });
  const onBack = useCallback(() => setOpen(undefined), []);
  const reserved = help ? HELP_LINES.length + 2 : 0;
  const body = open === undefined ? h(RunList, { source: props.source, now: props.now ?? Date.now, onOpen: setOpen, reserved }) : h(RunView, { source: props.source, run: open, onBack, reserved, onTyping: setTyping });
  return h(Box, { flexDirection: "column" }, help ? h(Box, { flexDirection: "column", borderStyle: "single" }, ...HELP_LINES.map((line) => h(Text, { key: line, wrap: "truncate" }, line))) : null, body);
}

function RunList(props: { source: TuiSource; now: () => number; onOpen: (run: RunSummary) => void; reserved: number }): ReactElement {
  const [runs, setRuns] = useState<RunSummary[] | undefined>(undefined);
  const [failure, setFailure] = useState("");
  const [selected, setSelected] = useState(0);
  const size = useSize();
  useEffect(() => {
    let live = true;
    const read = () =>
      void props.source.listRuns().then(
        (list) => {
          if (!live) return;
          setRuns(list);
          setFailure("");
        },
        (error: unknown) => live && setFailure(visibleText(error instanceof Error && "toLine" in error && typeof error.toLine === "function" ? String(error.toLine()) : String(error))),
      );
    read();
    const timer = setInterval(read, LIST_REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [props.source]);
  const count = runs?.length ?? 0;
  useInput((input, key) => {
    if (key.upArrow || input === "k") setSelected((index) => Math.max(0, index - 1));
    if (key.downArrow || input === "j") setSelected((index) => Math.min(Math.max(0, count - 1), index + 1));
    if (key.return && runs?.[selected] !== undefined) props.onOpen(runs[selected]);
  });
  if (runs === undefined) return h(Text, { color: failure === "" ? undefined : "red" }, failure === "" ? "reading runs…" : `could not read the runs: ${failure}`);
  if (runs.length === 0) return h(Text, null, "no runs yet: start one with baton run");
  const height = Math.max(1, size.rows - 3 - props.reserved);
  const first = Math.min(Math.max(0, selected - height + 1), Math.max(0, runs.length - height));
  const now = props.now();
  return h(
    Box,
    { flexDirection: "column" },
    h(Text, { bold: true }, headerLine(size.columns - 1)),
    ...runs.slice(first, first + height).map((run, offset) => {
      const index = first + offset;
      return h(Text, { key: run.id, inverse: index === selected, color: colorOf(run.status) }, rowLine(runRow(run, now), size.columns - 1));
    }),
    h(Text, { dimColor: failure === "", color: failure === "" ? undefined : "red" }, failure === "" ? `${runs.length} runs · Enter open · ? help · q quit` : `could not read the runs: ${failure}`),
  );
}

