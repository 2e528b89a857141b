// @baton/testkit/baton-cli: the real `baton` as tests of its clients meet it (the web UI's
// browser tests, the HTTP client's): a fresh project, `baton serve` and `baton run` as child
// processes, and the run logs they leave.
export { batonEnv } from "./baton-env.ts";
export { Baton, startRun, startServe } from "./baton-process.ts";
export { freePort } from "./free-port.ts";
export { makeProject, writeScript } from "./project.ts";
export { readLog, type LoggedEvent } from "./run-log.ts";
export { WAIT_MS, waitFor } from "./wait-for.ts";
