import { useEffect, useState } from "preact/hooks";
import { lastingFailure, type Api, type RunList, type RunOverview, type RunRow } from "../api/client.ts";
import { showAttention } from "../app/attention.ts";
import { runHash } from "../app/use-hash-route.ts";
import { ConnectionBadge } from "../connection/connection-badge.tsx";
import { formatCost, formatDuration, formatTime } from "../format/format.ts";
import { followStream, type ConnectionState } from "../stream/follow-stream.ts";
import { NewRunForm } from "./new-run-form.tsx";
import { FILTER_STATUSES, applyFeedEvent, changesOverview, filterRows, sortRows } from "./run-list.ts";
import { StatusBadge } from "./status-badge.tsx";

/** Waits this long after a feed event before refetching the list, so a burst costs one fetch. */
const REFRESH_DELAY_MS = 150;
/** Retries of the first list while the server cannot be reached: the first delay, doubling up to the cap. */
const START_RETRY_FIRST_MS = 250;
const START_RETRY_MAX_MS = 4000;

/** Every run, newest first, kept live by the cross-run feed. */
export function RunListPage({ api }: { api: Api }) {
  const [rows, setRows] = useState<readonly RunRow[]>();
  const [figures, setFigures] = useState<ReadonlyMap<string, RunOverview>>(new Map());
  const [filter, setFilter] = useState("");
  const [loadError, setLoadError] = useState<string>();
  const [connection, setConnection] = useState<{ state: ConnectionState; detail?: string }>({ state: "connecting" });

  useEffect(() => {
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let follower: { close(): void } | undefined;
    let startTimer: ReturnType<typeof setTimeout> | undefined;
    // The list from the API is the reference; feed events only show a change early and ask
    // for a fresh list, which also covers anything missed while the feed was down.
    const applyList = (list: RunList) => {
      setRows(sortRows(list.runs));
      setLoadError(undefined);
    };
    const showError = (error: unknown) => setLoadError(error instanceof Error ? error.message : String(error));
    // The figures (cost, stage, branch, waiting) are the server's fold of each run's events:
    // one request at a time, and one more after it when something moved meanwhile.
    let figuresBusy = false;
    let figuresAgain = false;
    const refreshFigures = () => {
      if (figuresBusy) {
        figuresAgain = true;
        return;
      }
      figuresBusy = true;
      const done = () => {
        figuresBusy = false;
        if (figuresAgain && !disposed) {
          figuresAgain = false;
          refreshFigures();
        }
      };
      api.overview().then(
        (runs) => {
          if (!disposed) setFigures(new Map(runs.map((run) => [run.id, run])));
          done();
        },
        done,
      );
    };
    const refresh = () => {
      timer = undefined;
      refreshFigures();
      api.listRuns().then(
        (list) => {
          if (!disposed) applyList(list);
        },
        (error: unknown) => {
          if (!disposed) showError(error);
        },
      );
    };
    const scheduleRefresh = () => {
      timer ??= setTimeout(refresh, REFRESH_DELAY_MS);
    };
    // The feed is followed from the position the first list was read at, not replayed from 0.
    const follow = (after: number) => {
      let connectedBefore = false;
      follower = followStream({
        url: (cursor) => api.feedUrl(cursor),
        open: (url) => new EventSource(url),
        cursorOf: (event) => (typeof event["pos"] === "number" ? event["pos"] : undefined),
        isLast: () => false,
        onEvents: (events) => {
          setRows((current) => (current === undefined ? current : events.reduce(applyFeedEvent, current)));
          if (events.some(changesOverview)) scheduleRefresh();
        },
        onState: (state, detail) => {
          setConnection({ state, detail });
          // Live again after a failure: the list may have missed changes. The first time, it was just read.
          if (state === "live" && connectedBefore) scheduleRefresh();
          if (state === "live") connectedBefore = true;
        },
        diagnose: () => api.listRuns().then(() => undefined, lastingFailure),
        after,
      });
    };
    const start = (delayMs: number) => {
      api.listRuns().then(
        (list) => {
          if (disposed) return;
          applyList(list);
          refreshFigures();
          follow(list.feedPos);
        },
        (error: unknown) => {
          if (disposed) return;
          showError(error);
          const fatal = lastingFailure(error);
          if (fatal !== undefined) setConnection({ state: "error", detail: fatal });
          else startTimer = setTimeout(() => start(Math.min(START_RETRY_MAX_MS, delayMs * 2)), delayMs);
        },
      );
    };
    start(START_RETRY_FIRST_MS);
    return () => {
      disposed = true;
      if (timer !== undefined) clearTimeout(timer);
      if (startTimer !== undefined) clearTimeout(startTimer);
      follower?.close();
    };
  }, [api]);

  // A running run's duration counts up: the list is drawn again each second while one runs.
  const [now, setNow] = useState(() => Date.now());
  const anyRunning = (rows ?? []).some((row) => row.status === "running");
  useEffect(() => {
    if (!anyRunning) return;
    const ticker = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(ticker);
  }, [anyRunning]);
  // Only a run still waiting counts: its row's live status says whether it still is.
  const waiting = (rows ?? []).filter((row) => figures.get(row.id)?.waiting !== undefined && (row.status === "running" || row.status === "paused")).length;
  useEffect(() => {
    showAttention("Runs · Baton", waiting);
  }, [waiting]);

  return (
    <section class="runs" aria-labelledby="runs-title">
      <div class="page-head">
        <h1 id="runs-title">Runs</h1>
        <ConnectionBadge state={connection.state} detail={connection.detail} />
      </div>
      <NewRunForm api={api} />
      {loadError !== undefined && <p role="alert">Could not load the runs: {loadError}</p>}
      {rows !== undefined && rows.length > 0 && (
        <label class="filter">
          Status{" "}
          <select name="status" value={filter} onChange={(event) => setFilter(event.currentTarget.value)}>
            <option value="">all</option>
            {FILTER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
      )}
      {rows === undefined ? (
        <p class="empty">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="empty">No runs yet.</p>
      ) : filterRows(rows, filter).length === 0 ? (
        <p class="empty">No {filter} runs.</p>
      ) : (
        <RunTable rows={filterRows(rows, filter)} figures={figures} now={now} />
      )}
    </section>
  );
}

function RunTable({ rows, figures, now }: { rows: readonly RunRow[]; figures: ReadonlyMap<string, RunOverview>; now: number }) {
  return (
    <table class="run-table">
      <caption class="visually-hidden">Runs, newest first</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Status</th>
          <th scope="col">Task</th>
          <th scope="col">Stage</th>
          <th scope="col">Branch</th>
          <th scope="col">Agent</th>
          <th scope="col">Started</th>
          <th scope="col">Duration</th>
          <th scope="col">Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <RunTableRow key={row.id} row={row} figure={figures.get(row.id)} now={now} />
        ))}
      </tbody>
    </table>
  );
}

function RunTableRow({ row, figure, now }: { row: RunRow; figure: RunOverview | undefined; now: number }) {
  // The figures may lag the live status by a refresh: only a run still active is waiting.
  const waiting = figure?.waiting !== undefined && (row.status === "running" || row.status === "paused");
  return (
    <tr data-run={row.id} data-status={row.status} data-waiting={waiting ? figure?.waiting : undefined}>
      <td>
        <a href={runHash(row.number)}>{row.number}</a>
      </td>
      <td>
        <StatusBadge status={row.status} />
        {waiting && <span class="waiting-mark">waiting for you ({figure?.waiting === "gate" ? "a gate" : figure?.waiting === "question" ? "a question" : "a permission"})</span>}
      </td>
      <td class="task-cell">
        <a href={runHash(row.number)}>{firstLine(row.task ?? "") || row.id}</a>
      </td>
      <td class="stage-cell">{figure?.stage ?? ""}</td>
      <td class="branch-cell">{figure?.branch ?? ""}</td>
      <td>{row.model ? `${row.agent ?? ""} (${row.model})` : (row.agent ?? "")}</td>
      <td>{formatTime(row.started_at ?? row.created_at)}</td>
      <td class="duration-cell">{durationOf(row, figure, now)}</td>
      <td class="cost-cell">{figure?.cost_usd !== undefined ? formatCost(figure.cost_usd) : ""}</td>
    </tr>
  );
}

/** A finished run's recorded duration; a live one's time since it started. */
function durationOf(row: RunRow, figure: RunOverview | undefined, now: number): string {
  if (figure?.duration_ms !== undefined && row.status !== "running") return formatDuration(figure.duration_ms);
  const start = Date.parse(row.started_at ?? "");
  const end = row.ended_at === undefined ? now : Date.parse(row.ended_at);
  return Number.isFinite(start) && Number.isFinite(end) ? formatDuration(Math.max(0, end - start)) : "";
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 140 ? `${line.slice(0, 140)}…` : line;
}
