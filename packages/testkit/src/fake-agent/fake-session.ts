/** What the fake agent remembers about one ACP session between prompts. */
export type FakeSession = {
  readonly id: string;
  /** From `session/new`; `write` and `run` steps act inside it. */
  readonly cwd: string;
  /** How many prompts started a turn so far (notices not counted); picks the script's turn. */
  promptsSeen: number;
  /** Cumulative over the session, as ACP's `usage_update.cost.amount` is. */
  costUsd: number;
  /** The model it reports, in `session/new` and after a client chose one. */
  model: string;
  /** The session mode (`session/set_mode`); it does not change how the script plays. */
  mode: string;
  /** Present while a turn plays; `session/cancel` aborts it. */
  activeTurn: AbortController | undefined;
  /**
   * The text of each prompt that arrived while a turn played (a notice, as Baton sends of
   * limits and loops), in order. Such a prompt is answered at once and plays no script turn.
   */
  notices: string[];
  /** Whether the client said, in `initialize`, that it takes form questions (ACP elicitation): `ask` steps ask only then. */
  readonly takesForms: boolean;
};

export function createFakeSession(id: string, cwd: string, model: string, takesForms = false): FakeSession {
  return { id, cwd, promptsSeen: 0, costUsd: 0, model, mode: "auto", activeTurn: undefined, notices: [], takesForms };
}
