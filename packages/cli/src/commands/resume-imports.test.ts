import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

/** Every module URL a fresh Node process resolves while it imports `entry` (node: builtins aside). */
function moduleGraph(entry: string): string[] {
  const script = `
    import module from "node:module";
    const seen = new Set();
    module.registerHooks({ resolve(specifier, context, next) { const resolved = next(specifier, context); seen.add(resolved.url); return resolved; } });
    await import(${JSON.stringify(entry)});
    process.stdout.write(JSON.stringify([...seen].filter((url) => !url.startsWith("node:"))));
  `;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })) as string[];
}

test("baton resume and approve load neither the ACP client nor the event catalog's schemas before the run goes on: an agent stage loads them when it runs", () => {
  const graph = moduleGraph(fileURLToPath(new URL("./resume.ts", import.meta.url)));
  assert.ok(graph.some((url) => url.includes("/engine/src/workflow/execute-workflow.ts")), "the graph holds the workflow executor");
  assert.deepEqual(
    graph.filter((url) => url.includes("@agentclientprotocol/sdk") || url.includes("/protocol/src/catalog/") || url.includes("/engine/src/acp/") || url.includes("/engine/src/conduct/conductor.ts")),
    [],
  );
});

test("baton resume and approve load neither the inference proxy, nor the transcript renderer, nor the handlers of stages that have not run yet", () => {
  const graph = moduleGraph(fileURLToPath(new URL("./resume.ts", import.meta.url)));
  assert.ok(graph.some((url) => url.includes("/engine/src/workflow/stage-handlers.ts")), "the graph holds the stage handlers' table");
  const deferred = ["/engine/src/proxy/inference-proxy.ts", "/engine/src/transcript/run-transcripts.ts", "/packages/transcript/src/", "/workflow/handlers/command-stage.ts", "/workflow/handlers/validate-stage.ts", "/workflow/handlers/merge-stage.ts", "/workflow/parallel/fan-out.ts", "/workflow/parallel/fan-in.ts", "@octokit/", "/workflow/handlers/pull-request-stage.ts", "/pipeline/subtasks-stage.ts"];
  assert.deepEqual(
    graph.filter((url) => deferred.some((part) => url.includes(part))),
    [],
  );
});

test("baton run without --workflow loads neither the workflow parser nor the workflow executor", () => {
  const graph = moduleGraph(fileURLToPath(new URL("./run.ts", import.meta.url)));
  assert.ok(graph.some((url) => url.includes("/engine/src/run/execute-run.ts")), "the graph holds the run executor");
  assert.deepEqual(
    graph.filter((url) => url.includes("/packages/workflow/src/") || url.includes("/engine/src/workflow/execute-workflow.ts") || url.includes("/cli/src/commands/workflow-run.ts")),
    [],
  );
});
