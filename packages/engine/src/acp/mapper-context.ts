import type { EventSink } from "./event-sink.ts";

/**
 * What the event mapper shares with the collaborators it owns (text, tool calls, permissions,
 * usage): where events go, the session they belong to, the clock and the workspace.
 */
export type MapperContext = {
  readonly sink: EventSink;
  /** The session's id, "" until known: it is learnt after the collaborators are made. */
  session(): string;
  now(): number;
  /** Milliseconds since `since` on the mapper's clock, whole and never negative. */
  elapsed(since: number): number;
  /** A path as events show it: ACP paths are absolute, events say them relative to the workspace. */
  relative(path: string): string;
};
