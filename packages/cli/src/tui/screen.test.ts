import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { test } from "node:test";
import xterm from "@xterm/headless";
import { createElement as h } from "react";
import type { RunSummary } from "@baton/engine/store";
import type { Envelope } from "@baton/protocol/core";
import { loadInk } from "./load-ink.ts";
import type { TuiSource } from "./tui-source.ts";

/** A terminal of `columns` × `rows` as ink sees one: its bytes go to a headless xterm. */
class ScreenStdout extends EventEmitter {
  readonly isTTY = true;
  readonly terminal: InstanceType<typeof xterm.Terminal>;
  columns: number;
  rows: number;
  constructor(terminal: InstanceType<typeof xterm.Terminal>, columns: number, rows: number) {
    super();
    this.terminal = terminal;
    this.columns = columns;
    this.rows = rows;
  }
  write(chunk: string | Uint8Array): boolean {
    this.terminal.write(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  }
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.terminal.resize(columns, rows);
    this.emit("resize");
  }
}

/** A terminal's keyboard as ink reads it: keys written here arrive as typed. */
class KeyboardStdin extends EventEmitter {
  readonly isTTY = true;
  #data: string | null = null;
  write(data: string): void {
    this.#data = data;
    this.emit("readable");
    this.emit("data", data);
  }
  read(): string | null {
    const data = this.#data;
    this.#data = null;
    return data;
  }
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/** The screen's rows as the emulator holds them, trailing blanks dropped. */
async function screenRows(terminal: InstanceType<typeof xterm.Terminal>): Promise<string[]> {
  await new Promise<void>((resolve) => terminal.write("", resolve));
  const buffer = terminal.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < terminal.rows; y += 1) rows.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
  return rows;
}

async function rowsUntil(terminal: InstanceType<typeof xterm.Terminal>, holds: (rows: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const rows = await screenRows(terminal);
    if (holds(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`the screen never got there:\n${rows.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const runs: RunSummary[] = Array.from({ length: 40 }, (_, index) => ({
  id: `run_${40 - index}`,
  number: 40 - index,
  status: index === 0 ? "running" : "succeeded",
  task: `Task number ${40 - index} with a long description that does not fit on one line of a narrow terminal`,
  agent: "fake",
  last_seq: 1,
  committed_bytes: 0,
}));
const source: TuiSource = {
  listRuns: () => Promise.resolve(runs),
  follow: async function* () {},
  cancel: () => Promise.resolve(),
  answer: () => Promise.resolve(),
  reply: () => Promise.resolve(),
  steer: () => Promise.resolve(),
  decide: () => Promise.resolve(),
  readOutput: () => Promise.resolve(""),
};

test("the run list on a real screen: a header row, one row per run cut to the width, windowed to the height, redrawn on resize", async () => {
  const terminal = new xterm.Terminal({ cols: 60, rows: 12, allowProposedApi: true, convertEol: true }) // convertEol: the tty turns \n into \r\n;
  const stdout = new ScreenStdout(terminal, 60, 12);
  // As baton tui loads it: a CI job's environment does not turn the live screen into a last frame.
  const { render } = await loadInk();
  const { TuiApp } = await import("./app.ts");
  const app = render(h(TuiApp, { source }), { stdout: stdout as unknown as NodeJS.WriteStream, stdin: new KeyboardStdin() as unknown as NodeJS.ReadStream, patchConsole: false, exitOnCtrlC: false });
  try {
    const rows = await rowsUntil(terminal, (lines) => lines.some((line) => line.includes("40 runs")));
    assert.match(rows[0] ?? "", /^#\s+STATUS\s+AGENT\s+TIME\s+TASK$/);
    assert.match(rows[1] ?? "", /^40\s+running\s+fake\s+Task number 40 with a …$/);
    assert.match(rows[2] ?? "", /^39\s+succeeded\s+fake\s+Task number 39/);
    // The header, 9 runs (the height less the header and the footer lines), the footer.
    const listed = rows.filter((line) => /^\d+\s+(running|succeeded)\s/.test(line));
    assert.equal(listed.length, 9);
    assert.ok(rows.every((line) => line.length <= 60), "no row runs past the width");
    stdout.resize(100, 12);
    const wide = await rowsUntil(terminal, (lines) => /Task number 40 with a long description that does not fit/.test(lines[1] ?? ""));
    assert.ok((wide[1] ?? "").length > 60);
  } finally {
    app.unmount();
    terminal.dispose();
  }
});

const at = "2026-01-01T00:00:00.000Z";
const runEvents = [
  { v: 1, run: "run_40", seq: 1, at, type: "run.created", data: { number: 40, task: "Task number 40", agent: "fake", repo: { root: "/r", dirty: false } } },
  { v: 1, run: "run_40", seq: 2, at, type: "run.started", data: { attempt: 1, resumed: false, pid: 1, host: "h" } },
  ...Array.from({ length: 30 }, (_, index) => ({ v: 1, run: "run_40", seq: 3 + index, at, type: "agent.message", data: { session: "s", turn: 1, text: `message ${index + 1} ${"word ".repeat(12)}` } })),
  { v: 1, run: "run_40", seq: 33, at, type: "tool.started", data: { session: "s", call: "call_1", tool: "execute", kind: "execute", title: "npm test -- --a-very-long-list-of-flags-that-goes-past-the-width" } },
  { v: 1, run: "run_40", seq: 34, at, type: "tool.completed", data: { session: "s", call: "call_1", tool: "execute", status: "completed", is_error: false, duration_ms: 40, output_chars: 2 } },
] as unknown as Envelope[];

test("a run's view on a real screen: its facts, the panel tabs, the newest timeline rows to the height, the keys; cut to the width and redrawn on resize", async () => {
  const terminal = new xterm.Terminal({ cols: 70, rows: 14, allowProposedApi: true, convertEol: true });
  const stdout = new ScreenStdout(terminal, 70, 14);
  const stdin = new KeyboardStdin();
  const { render } = await loadInk();
  const { TuiApp } = await import("./app.ts");
  const following: TuiSource = { ...source, follow: async function* (_runId, signal) {
    for (const event of runEvents) yield event;
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  } };
  const app = render(h(TuiApp, { source: following }), { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, patchConsole: false, exitOnCtrlC: false });
  try {
    await rowsUntil(terminal, (lines) => lines.some((line) => line.includes("40 runs")));
    const rows = await pressUntilRows(terminal, stdin, "\r", (lines) => lines.some((line) => line.includes("message 30")));
    assert.equal(rows[0], "run 40 · running · fake · 0 in / 0 out tokens");
    assert.match(rows[1] ?? "", /^ 1 timeline\s+2 stages\s+3 plan\s+4 tools\s+5 usage$/);
    // The newest lines fill the rows between the tabs and the key line, the last row kept free
    // (ink redraws a frame as tall as the screen from the top); every row within the width.
    assert.match(rows[11] ?? "", /^\s+✓ completed · 40 ms$/);
    assert.match(rows[10] ?? "", /^\s+⚙ execute npm test -- --a-very-long-list-of-flags-that-goes-past-th…$/);
    assert.match(rows[2] ?? "", /message 2[0-9] word/);
    assert.match(rows[12] ?? "", /^Esc back · Tab panel · s steer · c cancel/);
    assert.equal(rows[13], "");
    assert.ok(rows.every((line) => line.length <= 70), "no row runs past the width");
    stdout.resize(50, 10);
    const narrow = await rowsUntil(terminal, (lines) => /^Esc back/.test(lines[8] ?? "") && (lines[7] ?? "").includes("completed"));
    assert.ok(narrow.every((line) => line.length <= 50), `no row runs past the new width:\n${narrow.join("\n")}`);
    const tools = await pressUntilRows(terminal, stdin, "4", (lines) => (lines[2] ?? "").includes("call_1"));
    assert.match(tools[2] ?? "", /^▸ ✓ call_1 execute npm test -- --a-very-long-li/);
  } finally {
    app.unmount();
    terminal.dispose();
  }
});

async function pressUntilRows(terminal: InstanceType<typeof xterm.Terminal>, stdin: KeyboardStdin, key: string, holds: (rows: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    stdin.write(key);
    const rows = await rowsUntilQuick(terminal, holds);
    if (rows !== undefined) return rows;
    if (Date.now() > deadline) throw new Error(`pressing ${JSON.stringify(key)} never got the screen there:\n${(await screenRows(terminal)).join("\n")}`);
  }
}

async function rowsUntilQuick(terminal: InstanceType<typeof xterm.Terminal>, holds: (rows: string[]) => boolean): Promise<string[] | undefined> {
  const deadline = Date.now() + 300;
  while (Date.now() < deadline) {
    const rows = await screenRows(terminal);
    if (holds(rows)) return rows;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}
