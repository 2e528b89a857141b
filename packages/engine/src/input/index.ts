// What the CLI and the server need to reach a running run's people channel: leave inputs and
// answers, and check them against the run's log first.
export { newInputId, requestInput, type InputRequest } from "./input-request.ts";
export { DEFAULT_INPUT_LIMITS, INPUT_LIMIT_BOUNDS, type InputLimits } from "./input-limits.ts";
export type { PeopleSettings } from "./people-channel.ts";
export { answeredAlready, checkPersonAnswer, foldQuestion, questionLog, type OpenQuestion, type QuestionLog } from "./people-state.ts";
export { leaveAnswer, readAnswer, type PersonAnswer } from "../permissions/person-answer.ts";
export { askedLog, checkReply, foldAsked, repliedAlready, type AskedLog, type OpenAsked } from "../questions/asked-questions.ts";
export { checkContent, contentFromPairs, describeField, pairsFromLine } from "../questions/form-content.ts";
export type { FieldOption, FieldValue, QuestionField } from "../questions/form-fields.ts";
export { leaveReply, readReply, type PersonReply, type ReplyAction } from "../questions/question-reply.ts";
