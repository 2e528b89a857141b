// Setup, validation, artifacts and merge: what a run does around its agent's work.
export type { RunDelivery } from "./run-delivery.ts";
export { mergeIntoBase, type MergeRequest, type MergeOutcome } from "./merge-into-base.ts";
export { deliverByMerge, type DeliveryError } from "./deliver-merge.ts";
export { setupSteps, type SetupConfig } from "../config/setup-config.ts";
export { mergeStrategySchema, type MergeStrategy } from "../config/delivery-config.ts";
export { ARTIFACTS_DIR } from "../artifacts/capture-artifacts.ts";
export { mediaTypeOf } from "../artifacts/media-type.ts";
export { deliverEndedRun, DELIVER_WORKFLOW, DELIVERIES_FILE, type EndedRun, type EndedRunDelivery } from "./deliver-ended-run.ts";
export { githubToken, TOKEN_VARIABLES, deliverByPullRequest, type PullRequestSettings } from "./pull-request/deliver-pull-request.ts";
export { githubRepoOf } from "./pull-request/github-repo.ts";
export type { ValidationLine } from "./pull-request/pull-request-body.ts";
