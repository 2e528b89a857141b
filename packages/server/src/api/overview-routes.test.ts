import assert from "node:assert/strict";
import { test } from "node:test";
import { AUTH, COMPLETED, beginRun, makeProject, testApp } from "../testing/server-fixtures.ts";
import type { RunOverview } from "./overview-routes.ts";

test("GET /api/overview gives each run's figures and whether it waits for a person, newest first; a bad status is 400", async (t) => {
  const project = await makeProject("server-overview-");
  t.after(() => project.store.close());
  const { app } = testApp(project.store, project.root);
  const overview = async (query = "") => {
    const response = await app.request(`/api/overview${query}`, { headers: AUTH });
    assert.equal(response.status, 200);
    return ((await response.json()) as { runs: RunOverview[]; feed_pos: number }).runs;
  };

  const done = await beginRun(project.store, "done");
  done.append("workspace.ready", { path: project.root, kind: "worktree", branch: "baton/run-1" });
  done.append("usage.updated", { session: "s1", basis: "delta", input_tokens: 120, output_tokens: 30, cost_usd: 0.25 });
  done.append("run.completed", { ...COMPLETED, duration_ms: 4200 });
  await done.close();
  const asking = await beginRun(project.store, "asking");
  asking.append("permission.requested", { session: "s1", call: "c1", tool: "shell", options: [], awaiting: "person" });
  await asking.flush();

  const [second, first] = await overview();
  assert.deepEqual(first, { id: done.runId, number: done.number, status: "succeeded", duration_ms: 4200, cost_usd: 0.25, input_tokens: 120, output_tokens: 30, branch: "baton/run-1" });
  assert.equal(second!.number, asking.number);
  assert.equal(second!.waiting, "permission");
  assert.deepEqual((await overview("?status=succeeded")).map((run) => run.number), [done.number]);

  asking.append("permission.resolved", { session: "s1", call: "c1", decision: "allow", by: "human", rule: "ask", who: "api" });
  asking.append("run.completed", COMPLETED);
  await asking.close();
  assert.equal((await overview())[0]!.waiting, undefined);
  const bad = await app.request("/api/overview?status=done", { headers: AUTH });
  assert.equal(bad.status, 400);
  assert.match(((await bad.json()) as { error: { message: string } }).error.message, /status must be one of/);
});
