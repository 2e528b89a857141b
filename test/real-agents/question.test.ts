// Claude Code's AskUserQuestion through Baton: the twin has the model call the tool, Claude Code
// asks it as an ACP form elicitation (it offers the tool to its model only when the client
// advertises `elicitation.form`), Baton routes it to a person, a scripted `baton reply` answers,
// and Claude's next model request carries the answer.
import assert from "node:assert/strict";
import { test as nodeTest } from "node:test";
import type { Envelope } from "@baton/protocol";
import { eventsOfType, readEvents, runBaton, startBaton, waitForEvent, waitForOnlyRun } from "../../packages/cli/src/e2e/cli-harness.ts";
import { agentTestPlan } from "../../scripts/agents/agent-cache.ts";
import { diagnostics, disposable, project, RUN_MODELS, SCENARIO_TIMEOUT_MS, type Project } from "./baton-project.ts";

const plan = agentTestPlan("claude");
const options = { skip: plan.skip, timeout: SCENARIO_TIMEOUT_MS + 30_000 };
const test = (name: string, fn: () => Promise<void>): void => {
  nodeTest(name, options, async () => {
    if (plan.missing !== undefined) assert.fail(plan.missing);
    await fn();
  });
};

const QUESTION = "Which database should the cache use?";
const ASK = {
  name: "steps" as const,
  steps: [
    {
      tool: {
        name: "AskUserQuestion",
        args: {
          questions: [
            {
              question: QUESTION,
              header: "Database",
              options: [
                { label: "PostgreSQL", description: "the one we already run" },
                { label: "SQLite", description: "a file beside the app" },
              ],
              multiSelect: false,
            },
          ],
        },
      },
    },
  ],
  reply: "Noted the answer.",
};

/** The text of the tool results in the last main request the twin saw: what Claude sent back after the tool ran. */
function lastToolResult(p: Project): string {
  const main = p.twin.requests.filter((request) => request.role === "main");
  const messages = ((main.at(-1)?.body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages ?? []).flatMap((message) => (Array.isArray(message.content) ? message.content : []));
  return JSON.stringify(messages.filter((block) => (block as { type?: string }).type === "tool_result"));
}

async function askedRun(p: Project) {
  const child = startBaton(p.repo, ["run", "Ask me which database the cache should use.", "--agent", "claude", "--model", RUN_MODELS.claude, "--json", "--require-output", "none"], { env: p.env });
  const runId = await waitForOnlyRun(p.repo);
  const asked = await waitForEvent(p.repo, runId, "Claude's question", (event) => event.type === "question.asked");
  return { child, runId, asked, id: String(asked.data["id"]) };
}

function answeredOf(events: readonly Envelope[], id: string) {
  return eventsOfType(events, "question.answered").find((event) => event.data["id"] === id)?.data;
}

test("claude: AskUserQuestion reaches a person as a form; baton reply's answer is recorded and is what Claude sends its model next", async () => {
  await using d = disposable(await project("claude", ASK));
  const p = d.p;
  const { child, runId, asked, id } = await askedRun(p);
  try {
    const early = () => diagnostics(p, [], "");
    assert.equal(asked.data["awaiting"], "person", early());
    assert.equal(asked.data["message"], QUESTION);
    assert.equal(typeof asked.data["call"], "string", "tied to the AskUserQuestion tool call");
    const fields = asked.data["fields"] as Array<{ name: string; type: string; options?: Array<{ value: string }> }>;
    assert.deepEqual(fields.map((field) => [field.name, field.type, field.options?.map((option) => option.value)]), [
      ["question_0", "string", ["PostgreSQL", "SQLite"]],
      ["question_0_custom", "string", undefined],
    ]);
    const bad = await runBaton(p.repo, ["reply", "1", id, "question_0=MySQL"], { env: p.env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /field "question_0" must be one of PostgreSQL, SQLite, not "MySQL"/);

    const reply = await runBaton(p.repo, ["reply", "1", id, "question_0=SQLite"], { env: { ...p.env, USER: "ada" } });
    assert.equal(reply.code, 0, reply.stderr);
    const result = await child.done;
    const events = await readEvents(p.repo, runId);
    const why = () => diagnostics(p, events, result.stderr);
    assert.equal(result.code, 0, why());
    assert.deepEqual(answeredOf(events, id), { session: asked.data["session"], id, call: asked.data["call"], action: "accept", content: { question_0: "SQLite" }, by: "human", who: "ada", via: "cli" }, why());
    // Claude Code 2.1.318 words it: Your questions have been answered: "Which database…?"="SQLite".
    assert.ok(lastToolResult(p).includes(JSON.stringify(`"${QUESTION}"="SQLite"`).slice(1, -1)), `Claude's next request carries the answer\n${lastToolResult(p)}\n${why()}`);
    assert.equal(eventsOfType(events, "question.asked").length, 1, why());
  } finally {
    child.kill();
  }
});

test("claude: a question nobody answers within ask_timeout is declined, and Claude tells its model the user did not answer", async () => {
  await using d = disposable(await project("claude", ASK, { config: '[permissions]\nask_timeout = "2s"\n' }));
  const p = d.p;
  const { child, runId, id } = await askedRun(p);
  try {
    const result = await child.done;
    const events = await readEvents(p.repo, runId);
    const why = () => diagnostics(p, events, result.stderr);
    assert.equal(result.code, 0, why());
    assert.deepEqual(answeredOf(events, id), { session: answeredOf(events, id)?.["session"], id, call: answeredOf(events, id)?.["call"], action: "decline", by: "policy", rule: "question:timeout", reason: "nobody answered in time" }, why());
    // Claude Code 2.1.318 words a declined form: The user did not answer the questions.
    assert.match(lastToolResult(p), /The user did not answer the questions/, `${lastToolResult(p)}\n${why()}`);
  } finally {
    child.kill();
  }
});

test("claude: an unattended run (--yes) does not advertise form questions, so Claude Code does not offer its model AskUserQuestion", async () => {
  await using d = disposable(await project("claude", ASK));
  const p = d.p;
  const child = startBaton(p.repo, ["run", "Ask me which database the cache should use.", "--agent", "claude", "--model", RUN_MODELS.claude, "--json", "--require-output", "none", "--yes", "--timeout", "5m"], { env: p.env });
  const result = await child.done;
  const runId = await waitForOnlyRun(p.repo);
  const events = await readEvents(p.repo, runId);
  const why = () => diagnostics(p, events, result.stderr);
  assert.equal(result.code, 0, why());
  const offered = p.twin.requests.filter((request) => request.role === "main").flatMap((request) => ((request.body as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name));
  assert.ok(offered.includes("Bash"), `the model was offered tools\n${why()}`);
  assert.equal(offered.includes("AskUserQuestion"), false, why());
  assert.equal(eventsOfType(events, "question.asked").length, 0, why());
});
