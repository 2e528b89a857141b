export { DispatchWorker, type RunExecutor, type WorkerOptions } from "./dispatch-worker.ts";
export { DispatchQueue, DEFAULT_DISPATCH_TIMING, HEARTBEAT_ENV, dispatchTimingFrom, type DispatchTiming } from "./dispatch-queue.ts";
export { submitRun, dispatchingStore } from "./submit-run.ts";
export { runJobSchema, LABEL_PATTERN, RUN_QUEUE, type RunJob } from "./run-job.ts";
export { WORKER_LOST_CODE } from "./lost-run.ts";
export { cancelSharedRun } from "./cancel-run.ts";
export type { Continuation } from "./continue-run.ts";
export type { WorkerRow } from "../store/pg/pg-dispatch.ts";
