// The API's answers to bad requests, pinned: status, code, message and hint. These are the
// answers the server gave before its routes were declared with schemas (the document is
// generated from them); the schemas' messages must keep them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AUTH, finishedRun, makeProject, testApp } from "../../testing/server-fixtures.ts";

type Case = [method: string, path: string, headers: Record<string, string>, body: string | null, status: number, answer: unknown];

const CASES: Case[] = [
  ["GET", "/api/runs?status=bogus", {}, null, 400, {"error": {"code": "bad_request", "message": "status must be one of created, running, paused, succeeded, stopped, failed, cancelled, not \"bogus\""}}],
  ["GET", "/api/runs?limit=0", {}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 10000, not \"0\""}}],
  ["GET", "/api/runs?limit=abc", {}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 10000, not \"abc\""}}],
  ["GET", "/api/runs?limit=100000", {}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 10000, not \"100000\""}}],
  ["GET", "/api/runs?limit=-1", {}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 10000, not \"-1\""}}],
  ["GET", "/api/runs?status=%1b", {}, null, 400, {"error": {"code": "bad_request", "message": "status must be one of created, running, paused, succeeded, stopped, failed, cancelled, not \"\\u001b\""}}],
  ["GET", "/api/runs/..%2F", {}, null, 400, {"error": {"code": "invalid_ref", "message": "\"../\" is not a run number or id", "hint": "use a run number (12) or id (run_…)"}}],
  ["GET", "/api/runs/99", {}, null, 404, {"error": {"code": "run_not_found", "message": "no run matches \"99\"", "hint": "list runs with `baton runs`"}}],
  ["GET", "/api/runs/run_x%00", {}, null, 400, {"error": {"code": "invalid_ref", "message": "\"run_x\\u0000\" is not a run number or id", "hint": "use a run number (12) or id (run_…)"}}],
  ["GET", "/api/runs/1/events?after=-1", {}, null, 400, {"error": {"code": "invalid_cursor", "message": "after must be a non-negative integer, not \"-1\"", "hint": "pass the last id you received, or 0"}}],
  ["GET", "/api/runs/1/events?after=x", {}, null, 400, {"error": {"code": "invalid_cursor", "message": "after must be a non-negative integer, not \"x\"", "hint": "pass the last id you received, or 0"}}],
  ["GET", "/api/runs/1/events?after=1.5", {}, null, 400, {"error": {"code": "invalid_cursor", "message": "after must be a non-negative integer, not \"1.5\"", "hint": "pass the last id you received, or 0"}}],
  ["GET", "/api/runs/1/events?limit=0", {}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 10000, not \"0\""}}],
  ["GET", "/api/runs/1/events?limit=20000", {}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 10000, not \"20000\""}}],
  ["GET", "/api/runs/1/events?limit=abc", {}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 10000, not \"abc\""}}],
  ["GET", "/api/runs/1/outputs/..", {}, null, 404, {"error": {"code": "not_found", "message": "no route GET /api/runs/1/", "hint": "the API is described at /api/openapi.json"}}],
  ["GET", "/api/runs/1/outputs/a..b", {}, null, 400, {"error": {"code": "invalid_call", "message": "\"a..b\" is not a tool call id", "hint": "use the call id of a tool.completed event"}}],
  ["GET", "/api/runs/1/outputs/.x", {}, null, 400, {"error": {"code": "invalid_call", "message": "\".x\" is not a tool call id", "hint": "use the call id of a tool.completed event"}}],
  ["GET", "/api/runs/1/outputs/c_1", {}, null, 404, {"error": {"code": "output_not_found", "message": "run 1 has no output for call c_1", "hint": "tool outputs exist for calls whose tool.completed has output_file or a whole preview"}}],
  ["GET", "/api/runs/1/artifacts/xyz", {}, null, 400, {"error": {"code": "bad_request", "message": "\"xyz\" is not a sha256", "hint": "use the sha256 of an artifact.captured event"}}],
  ["GET", "/api/runs/1/artifacts/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", {}, null, 404, {"error": {"code": "artifact_not_found", "message": "run 1 captured no file with sha256 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "hint": "GET /api/runs/RUN/artifacts lists them"}}],
  ["GET", "/api/runs/bad!/artifacts", {}, null, 400, {"error": {"code": "invalid_ref", "message": "\"bad!\" is not a run number or id", "hint": "use a run number (12) or id (run_…)"}}],
  ["GET", "/api/runs/1/diff", {}, null, 409, {"error": {"code": "no_workspace", "message": "the run has no workspace yet", "hint": "wait for its workspace.ready event"}}],
  ["GET", "/api/overview?limit=201", {}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 200, not \"201\""}}],
  ["GET", "/api/overview?status=x", {}, null, 400, {"error": {"code": "bad_request", "message": "status must be one of created, running, paused, succeeded, stopped, failed, cancelled, not \"x\""}}],
  ["GET", "/api/runs/1/stream", {"last-event-id": "x"}, null, 400, {"error": {"code": "invalid_cursor", "message": "Last-Event-ID must be a non-negative integer, not \"x\"", "hint": "pass the last id you received, or 0"}}],
  ["GET", "/api/runs/1/stream?after=x", {}, null, 400, {"error": {"code": "invalid_cursor", "message": "after must be a non-negative integer, not \"x\"", "hint": "pass the last id you received, or 0"}}],
  ["GET", "/api/stream", {"last-event-id": " -1 "}, null, 400, {"error": {"code": "invalid_cursor", "message": "Last-Event-ID must be a non-negative integer, not \"-1\"", "hint": "pass the last id you received, or 0"}}],
  ["GET", "/api/stream?after=1e3", {}, null, 400, {"error": {"code": "invalid_cursor", "message": "after must be a non-negative integer, not \"1e3\"", "hint": "pass the last id you received, or 0"}}],
  ["POST", "/api/runs", {}, "{}", 415, {"error": {"code": "unsupported_media_type", "message": "the body must be application/json, not text/plain;charset=UTF-8", "hint": "send Content-Type: application/json"}}],
  ["POST", "/api/runs", {"content-type": "text/plain"}, "{}", 415, {"error": {"code": "unsupported_media_type", "message": "the body must be application/json, not text/plain", "hint": "send Content-Type: application/json"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "not json", 400, {"error": {"code": "bad_request", "message": "the body is not valid JSON"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "[]", 400, {"error": {"code": "bad_request", "message": "the body must be a JSON object"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "null", 400, {"error": {"code": "bad_request", "message": "the body must be a JSON object"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{}", 400, {"error": {"code": "bad_request", "message": "\"task\" is required"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"agent\":\"fake\"}", 400, {"error": {"code": "bad_request", "message": "\"task\" is required"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\"}", 400, {"error": {"code": "bad_request", "message": "\"agent\" is required"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"-x\"}", 400, {"error": {"code": "bad_request", "message": "\"agent\" has an invalid value"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":5}", 400, {"error": {"code": "bad_request", "message": "\"agent\" must be a non-empty string of at most 64 characters"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"   \",\"agent\":\"fake\"}", 400, {"error": {"code": "bad_request", "message": "\"task\" must be a non-empty string of at most 100000 characters"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"a\\u0000b\",\"agent\":\"fake\"}", 400, {"error": {"code": "bad_request", "message": "\"task\" must be a non-empty string of at most 100000 characters"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"model\":\"\"}", 400, {"error": {"code": "bad_request", "message": "\"model\" must be a non-empty string of at most 200 characters"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"timeout\":\"30 m\"}", 400, {"error": {"code": "bad_request", "message": "\"timeout\" has an invalid value"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"require_output\":\"all\"}", 400, {"error": {"code": "bad_request", "message": "\"require_output\" has an invalid value"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"require_output\":5}", 400, {"error": {"code": "bad_request", "message": "\"require_output\" must be a non-empty string of at most 16 characters"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"workflow\":\"../x\"}", 400, {"error": {"code": "bad_request", "message": "\"workflow\": \"../x\" is not a workflow name", "hint": "name a workflow of .baton/workflows/ without its extension (or single); paths are not taken"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"workflow\":\"x.dot\"}", 400, {"error": {"code": "bad_request", "message": "\"workflow\": \"x.dot\" is not a workflow name", "hint": "name a workflow of .baton/workflows/ without its extension (or single); paths are not taken"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"workflow\":7}", 400, {"error": {"code": "bad_request", "message": "\"workflow\": it is not a workflow name", "hint": "name a workflow of .baton/workflows/ without its extension (or single); paths are not taken"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"auto_approve\":true}", 400, {"error": {"code": "bad_request", "message": "\"auto_approve\" needs a \"workflow\"", "hint": "name the workflow whose gates it answers"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"auto_approve\":\"yes\"}", 400, {"error": {"code": "bad_request", "message": "\"auto_approve\" must be true or false"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"script\":5}", 400, {"error": {"code": "bad_request", "message": "\"script\" must be the script itself (a JSON array of steps, or {\"turns\": [[…], …]}) or the path of a file in the project"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"script\":\"\"}", 400, {"error": {"code": "bad_request", "message": "\"script\" must be the script itself (a JSON array of steps, or {\"turns\": [[…], …]}) or the path of a file in the project"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"script\":null}", 400, {"error": {"code": "bad_request", "message": "\"script\" must be the script itself (a JSON array of steps, or {\"turns\": [[…], …]}) or the path of a file in the project"}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"script\":\"../../etc/passwd\"}", 400, {"error": {"code": "bad_request", "message": "\"script\": \"../../etc/passwd\" is not a file in the project", "hint": "name a file inside the project, relative to its root, or send the steps themselves as \"script\""}}],
  ["POST", "/api/runs", {"content-type": "application/json"}, "{\"task\":\"t\",\"agent\":\"fake\",\"script\":\"a\\u0000\"}", 400, {"error": {"code": "bad_request", "message": "\"script\" must be the script itself (a JSON array of steps, or {\"turns\": [[…], …]}) or the path of a file in the project"}}],
  ["POST", "/api/runs/1/cancel", {"content-type": "application/json"}, "{\"reason\":\"\"}", 400, {"error": {"code": "bad_request", "message": "\"reason\" must be a non-empty string of at most 1000 characters"}}],
  ["POST", "/api/runs/1/cancel", {}, "x", 415, {"error": {"code": "unsupported_media_type", "message": "the body must be application/json, not text/plain;charset=UTF-8", "hint": "send Content-Type: application/json"}}],
  ["POST", "/api/runs/1/cancel", {}, null, 409, {"error": {"code": "run_ended", "message": "run 1 already ended (succeeded)", "hint": "nothing to cancel"}}],
  ["POST", "/api/runs/99/cancel", {}, null, 404, {"error": {"code": "run_not_found", "message": "no run matches \"99\"", "hint": "list runs with `baton runs`"}}],
  ["POST", "/api/runs/1/approve", {}, null, 409, {"error": {"code": "not_paused", "message": "run 1 is succeeded, not waiting at a gate", "hint": "only a workflow run paused at a gate takes a decision"}}],
  ["POST", "/api/runs/1/approve", {"content-type": "application/json"}, "{\"via\":\"cli\"}", 400, {"error": {"code": "bad_request", "message": "\"via\" must be one of api, web"}}],
  ["POST", "/api/runs/1/approve", {"content-type": "application/json"}, "{\"via\":\"\"}", 400, {"error": {"code": "bad_request", "message": "\"via\" must be a non-empty string of at most 8 characters"}}],
  ["POST", "/api/runs/1/approve", {"content-type": "application/json"}, "{\"via\":\"verylongvia\"}", 400, {"error": {"code": "bad_request", "message": "\"via\" must be a non-empty string of at most 8 characters"}}],
  ["POST", "/api/runs/1/reject", {"content-type": "application/json"}, "{\"comment\":5}", 400, {"error": {"code": "bad_request", "message": "\"comment\" must be a non-empty string of at most 10000 characters"}}],
  ["POST", "/api/runs/1/reject", {"content-type": "application/json"}, "{\"by\":\"\"}", 400, {"error": {"code": "bad_request", "message": "\"by\" must be a non-empty string of at most 200 characters"}}],
  ["POST", "/api/runs/1/answer", {}, null, 415, {"error": {"code": "unsupported_media_type", "message": "the body must be application/json, not absent", "hint": "send Content-Type: application/json"}}],
  ["POST", "/api/runs/1/answer", {"content-type": "application/json"}, "{}", 400, {"error": {"code": "bad_request", "message": "\"answer\" is required"}}],
  ["POST", "/api/runs/1/answer", {"content-type": "application/json"}, "{\"answer\":\"\"}", 400, {"error": {"code": "bad_request", "message": "\"answer\" must be a non-empty string of at most 10000 characters"}}],
  ["POST", "/api/runs/1/answer", {"content-type": "application/json"}, "{\"answer\":\"yes\"}", 409, {"error": {"code": "not_paused", "message": "run 1 is succeeded, not waiting at a gate", "hint": "only a workflow run paused at a gate takes a decision"}}],
  ["POST", "/api/runs/1/input", {"content-type": "application/json"}, "{}", 400, {"error": {"code": "bad_request", "message": "\"text\" is required"}}],
  ["POST", "/api/runs/1/input", {"content-type": "application/json"}, "{\"text\":\"hi\"}", 409, {"error": {"code": "run_ended", "message": "run 1 is succeeded, so nothing can steer it", "hint": "start a new run, or fork this one"}}],
  ["POST", "/api/runs/1/input", {"content-type": "application/json"}, "{\"text\":\"hi\",\"by\":5}", 400, {"error": {"code": "bad_request", "message": "\"by\" must be a non-empty string of at most 200 characters"}}],
  ["POST", "/api/runs/1/input", {}, "{\"text\":\"hi\"}", 415, {"error": {"code": "unsupported_media_type", "message": "the body must be application/json, not text/plain;charset=UTF-8", "hint": "send Content-Type: application/json"}}],
  ["POST", "/api/runs/1/permissions/c_1/allow", {}, null, 409, {"error": {"code": "run_ended", "message": "run 1 is succeeded: it has no question waiting", "hint": "see it with baton show 1"}}],
  ["POST", "/api/runs/1/permissions/c_1/allow", {"content-type": "application/json"}, "{\"always_for_run\":\"yes\"}", 400, {"error": {"code": "bad_request", "message": "\"always_for_run\" must be true or false"}}],
  ["POST", "/api/runs/1/permissions/c_1/deny", {"content-type": "application/json"}, "{\"reason\":\"\"}", 400, {"error": {"code": "bad_request", "message": "\"reason\" must be a non-empty string of at most 2000 characters"}}],
  ["POST", "/api/runs/1/permissions/c_1/deny", {"content-type": "application/json"}, "{\"via\":\"x\"}", 400, {"error": {"code": "bad_request", "message": "\"via\" must be one of api, web"}}],
  ["POST", "/api/runs/1/permissions/..%2F/allow", {}, null, 400, {"error": {"code": "invalid_call", "message": "\"../\" is not a tool call id", "hint": "use the call id of a tool.completed event"}}],
  ["POST", "/api/runs/1/permissions/c_1/allow", {"content-type": "application/json"}, "{\"option_id\":\"\"}", 400, {"error": {"code": "bad_request", "message": "\"option_id\" must be a non-empty string of at most 200 characters"}}],
  ["PUT", "/api/runs", {}, null, 405, {"error": {"code": "method_not_allowed", "message": "PUT is not allowed on /api/runs", "hint": "allowed: GET, POST"}}],
  ["DELETE", "/api/runs/1", {}, null, 405, {"error": {"code": "method_not_allowed", "message": "DELETE is not allowed on /api/runs/1", "hint": "allowed: GET"}}],
  ["GET", "/api/runs/1/cancel", {}, null, 405, {"error": {"code": "method_not_allowed", "message": "GET is not allowed on /api/runs/1/cancel", "hint": "allowed: POST"}}],
  ["POST", "/api/openapi.json", {}, null, 405, {"error": {"code": "method_not_allowed", "message": "POST is not allowed on /api/openapi.json", "hint": "allowed: GET"}}],
  ["GET", "/api/nothing", {}, null, 404, {"error": {"code": "not_found", "message": "no route GET /api/nothing", "hint": "the API is described at /api/openapi.json"}}],
  ["GET", "/api/runs/1/events?limit=0", {"accept": "application/x-ndjson"}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 9007199254740991, not \"0\""}}],
  ["GET", "/api/runs/1/events?limit=abc", {"accept": "application/x-ndjson"}, null, 400, {"error": {"code": "bad_request", "message": "limit must be an integer from 1 to 9007199254740991, not \"abc\""}}],
  ["POST", "/api/runs/1/input", {"content-type": "application/json;"}, "{\"text\":\"hi\"}", 409, {"error": {"code": "run_ended", "message": "run 1 is succeeded, so nothing can steer it", "hint": "start a new run, or fork this one"}}],
  ["POST", "/api/runs/1/input", {"content-type": "application/json; charset=utf-8"}, "{\"text\":\"hi\"}", 409, {"error": {"code": "run_ended", "message": "run 1 is succeeded, so nothing can steer it", "hint": "start a new run, or fork this one"}}],
];

test("every bad request is answered with its status, code, message and hint, as before the schemas", async (t) => {
  const project = await makeProject("server-bad-inputs-");
  t.after(() => project.store.close());
  const run = await finishedRun(project.store, 2);
  assert.equal(run.number, 1, "the cases name run 1");
  const { app } = testApp(project.store, project.root);
  for (const [method, path, headers, body, status, answer] of CASES) {
    const response = await app.request(path, { method, headers: { ...AUTH, ...headers }, ...(body === null ? {} : { body }) });
    const label = `${method} ${path} ${body ?? ""}`;
    assert.equal(response.status, status, label);
    assert.deepEqual(await response.json(), answer, label);
  }
});
