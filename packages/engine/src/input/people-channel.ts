import { PermissionAsker } from "../permissions/permission-asker.ts";
import { answerFileName, personAnswerOf } from "../permissions/person-answer.ts";
import { QuestionAsker } from "../questions/question-asker.ts";
import { personReplyOf, replyFileName } from "../questions/question-reply.ts";
import { DEFAULT_INPUT_LIMITS, type InputLimits } from "./input-limits.ts";
import { InputQueue, type InputSink } from "./input-queue.ts";
import { inputRequestOf } from "./input-request.ts";
import { removeStaleAnswers, watchRequests, type RequestWatch } from "./request-folder.ts";

/** How a run takes people's requests: input limits, and how long a question waits. */
export type PeopleSettings = {
  inputLimits?: InputLimits | undefined;
  /**
   * How long a question of an `ask` rule waits for a person before it is denied, and one the
   * agent asks (ACP elicitation) before it is declined; undefined: no timeout.
   */
  askTimeoutMs?: number | undefined;
  /** Nobody will answer (`--yes`, a worker): the agent's questions are declined at once. */
  unattended?: boolean | undefined;
};

/** A run's way to its people: the inputs they send, the permission questions and the agent's questions they answer. */
export type PeopleChannel = {
  readonly inputs: InputQueue;
  readonly asker: PermissionAsker;
  readonly questions: QuestionAsker;
  /**
   * The run's agents are done: inputs still waiting are rejected (unless `silently`, once the
   * run's final event is written), and the folder is no longer watched.
   */
  close(options?: { silently?: boolean }): void;
};

/**
 * Watches the run's folder for people's requests (run/cancel-request.ts is the cancel's twin)
 * and routes them: an input to the queue, an answer to the permission question waiting for
 * it, a reply to the agent's question waiting for it. A request
 * is removed once taken: an input once the run recorded `input.queued` or `input.rejected`,
 * an answer once its question ended (a late one at once). So a resumed run takes none again,
 * and a later question of the same call id can be answered. Answers left for an earlier
 * process of the run are removed first (its questions were all resolved).
 */
export async function openPeopleChannel(runDir: string, sink: InputSink, settings: PeopleSettings = {}): Promise<PeopleChannel> {
  const inputs = new InputQueue(sink, settings.inputLimits ?? DEFAULT_INPUT_LIMITS);
  let watch: RequestWatch | undefined;
  const remove = (name: string) => void watch?.remove(name).catch(() => undefined);
  const asker = new PermissionAsker({ timeoutMs: settings.askTimeoutMs, onSettled: (call) => remove(answerFileName(call)) });
  const questions = new QuestionAsker({ timeoutMs: settings.askTimeoutMs, unattended: settings.unattended === true, onSettled: (id) => remove(replyFileName(id)) });
  await removeStaleAnswers(runDir);
  watch = watchRequests(runDir, (name, body) => {
    if (name.startsWith("input-")) {
      const request = inputRequestOf(body);
      if (request !== undefined) inputs.offer(request);
      remove(name);
    } else if (name.startsWith("question-")) {
      // A reply that does not fit its form is removed, so that one that does can be left.
      const reply = personReplyOf(body);
      const receipt = reply === undefined ? "refused" : questions.receive(reply);
      if (receipt === "late" || receipt === "refused") remove(name);
    } else {
      const answer = personAnswerOf(body);
      if (answer === undefined || asker.receive(answer) === "late") remove(name);
    }
  });
  const stop = () => watch?.stop();
  let closed = false;
  return {
    inputs,
    asker,
    questions,
    close: (options = {}) => {
      if (closed) return;
      closed = true;
      stop();
      if (options.silently !== true) inputs.close();
    },
  };
}
