import { useEffect, useState } from "preact/hooks";
import { lastingFailure, type Api, type RunList, type RunRow } from "../api/client.ts";
import { runHash } from "../app/use-hash-route.ts";
import { ConnectionBadge } from "../connection/connection-badge.tsx";
import { formatTime } from "../format/format.ts";
import { followStream, type ConnectionState } from "../stream/follow-stream.ts";
import { NewRunForm } from "./new-run-form.tsx";
import { applyFeedEvent, changesRow, sortRows } from "./run-list.ts";
import { StatusBadge } from "./status-badge.tsx";

/** Waits this long after a feed event before refetching the list, so a burst costs one fetch. */
const REFRESH_DELAY_MS = 150;
/** Retries of the first list while the server cannot be reached: the first delay, doubling up to the cap. */
const START_RETRY_FIRST_MS = 250;
const START_RETRY_MAX_MS = 4000;

/** Every run, newest first, kept live by the cross-run feed. */
export function RunListPage({ api }: { api: Api }) {
  const [rows, setRows] = useState<readonly RunRow[]>();
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
    const refresh = () => {
      timer = undefined;
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
          if (events.some(changesRow)) scheduleRefresh();
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

  useEffect(() => {
    document.title = "Runs · Baton";
  }, []);

  return (
    <section class="runs" aria-labelledby="runs-title">
      <div class="page-head">
        <h1 id="runs-title">Runs</h1>
        <ConnectionBadge state={connection.state} detail={connection.detail} />
      </div>
      <NewRunForm api={api} />
      {loadError !== undefined && <p role="alert">Could not load the runs: {loadError}</p>}
      {rows === undefined ? (
        <p class="empty">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="empty">No runs yet.</p>
      ) : (
        <RunTable rows={rows} />
      )}
    </section>
  );
}

function RunTable({ rows }: { rows: readonly RunRow[] }) {
  return (
    <table class="run-table">
      <caption class="visually-hidden">Runs, newest first</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Status</th>
          <th scope="col">Task</th>
          <th scope="col">Agent</th>
          <th scope="col">Started</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-run={row.id} data-status={row.status}>
            <td>
              <a href={runHash(row.number)}>{row.number}</a>
            </td>
            <td>
              <StatusBadge status={row.status} />
            </td>
            <td class="task-cell">
              <a href={runHash(row.number)}>{firstLine(row.task ?? "") || row.id}</a>
            </td>
            <td>{row.model ? `${row.agent ?? ""} (${row.model})` : (row.agent ?? "")}</td>
            <td>{formatTime(row.started_at ?? row.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 140 ? `${line.slice(0, 140)}…` : line;
}
