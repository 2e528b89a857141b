/** Where mapped events go. Durable ones get a seq from the run log; ephemeral ones do not. */
export type EventSink = {
  append(type: string, data: Record<string, unknown>): void;
  publish(type: string, data: Record<string, unknown>): void;
};
