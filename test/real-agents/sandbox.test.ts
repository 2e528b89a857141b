// Every installed real agent in bubblewrap's sandbox (`[sandbox] kind = "bwrap"`), through Baton's
// inference proxy (reached through the relay in the sandbox) and the model twin: the conformance
// write scenario succeeds; a command that tries to read a file outside the worktree and home, to
// write outside the worktree, or to reach a loopback server outside the sandbox fails; no agent
// process is left after the run.
import assert from "node:assert/strict";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, test as nodeTest } from "node:test";
import { prepareSandbox } from "@baton/engine/sandbox";
import { testTempDir } from "@baton/protocol/testing";
import { eventsOfType, waitFor } from "../../packages/cli/src/e2e/cli-harness.ts";
import { AGENT_NAMES, agentTestPlan } from "../../scripts/agents/agent-cache.ts";
import { agentProcesses, diagnostics, disposable, project, runAgent, SCENARIO_TIMEOUT_MS, workspacePath } from "./baton-project.ts";

/** Why this machine cannot make the sandbox (no bwrap, no user namespaces), if it cannot. */
const noSandbox = await prepareSandbox({ kind: "bwrap", read_only: [], writable: [] }, { env: process.env, projectRoot: "/", batonDir: "/nonexistent" }).then(
  () => undefined,
  (error: Error) => error.message,
);

describe("real agents in bubblewrap's sandbox", { concurrency: false }, () => {
  for (const agent of AGENT_NAMES) {
    const plan = agentTestPlan(agent);
    const options = { skip: noSandbox ?? plan.skip, timeout: SCENARIO_TIMEOUT_MS + 30_000 };
    const test = (name: string, fn: () => Promise<void>): void => {
      nodeTest(name, options, async () => {
        if (plan.missing !== undefined) assert.fail(plan.missing);
        await fn();
      });
    };

    test(`${agent}: writes a file in the sandbox, through the proxy; no agent process is left`, async () => {
      const content = `written by ${agent} in the sandbox\n`;
      await using p = disposable(await project(agent, { name: "write", path: "notes/hello.txt", content, reply: "Done." }, { sandbox: true }));
      const { result, events } = await runAgent(p.p, "Create notes/hello.txt with a greeting.");
      const why = () => diagnostics(p.p, events, result.stderr);
      assert.equal(result.code, 0, why());
      assert.ok(eventsOfType(events, "log").some((event) => event.data["code"] === "agent_sandboxed"), why());
      assert.equal(await readFile(join(workspacePath(events), "notes", "hello.txt"), "utf8"), content, why());
      const calls = eventsOfType(events, "model.request.completed");
      assert.ok(calls.length >= 1, `the model was reached through the proxy\n${why()}`);
      assert.equal(calls.length, p.p.twin.requests.filter((request) => request.api !== null).length, `Baton's count is the twin's\n${why()}`);
      await waitFor(`no ${agent} process left`, () => agentProcesses(agent, p.p.home).length === 0, 15_000).catch(() => assert.deepEqual(agentProcesses(agent, p.p.home), [], why()));
    });

    test(`${agent}: a command in the sandbox cannot read outside, write outside or reach a loopback server`, async () => {
      const outside = await testTempDir(`real-sandbox-outside-${agent}-`);
      await writeFile(join(outside, "secret.txt"), "outside-secret-text\n");
      const server = createServer((socket) => socket.end("hello from outside\n"));
      let connections = 0;
      server.on("connection", () => (connections += 1));
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      try {
        const port = (server.address() as AddressInfo).port;
        const command = [
          `cat ${outside}/secret.txt > read.txt 2>&1`,
          `echo escaped > ${outside}/written.txt 2> write.txt`,
          `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}; cat <&3' > net.txt 2>&1`,
          "echo ran > ran.txt",
        ].join("; ");
        await using p = disposable(await project(agent, { name: "run", command, reply: "Ran it." }, { sandbox: true }));
        const { result, events } = await runAgent(p.p, "Run the command.");
        const why = () => diagnostics(p.p, events, result.stderr);
        assert.equal(result.code, 0, why());
        const worktree = workspacePath(events);
        assert.equal((await readFile(join(worktree, "ran.txt"), "utf8")).trim(), "ran", `the command ran\n${why()}`);
        assert.doesNotMatch(await readFile(join(worktree, "read.txt"), "utf8"), /outside-secret-text/, why());
        assert.equal(existsSync(join(outside, "written.txt")), false, `nothing was written outside\n${why()}`);
        assert.doesNotMatch(await readFile(join(worktree, "net.txt"), "utf8"), /hello from outside/, why());
        assert.equal(connections, 0, `no connection reached the server outside\n${why()}`);
        await waitFor(`no ${agent} process left`, () => agentProcesses(agent, p.p.home).length === 0, 15_000).catch(() => assert.deepEqual(agentProcesses(agent, p.p.home), [], why()));
      } finally {
        server.close();
      }
    });
  }
});
