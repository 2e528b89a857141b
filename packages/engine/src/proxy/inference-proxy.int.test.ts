import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ModelTwin } from "@baton/testkit/model-twin";
import { InferenceProxy } from "./inference-proxy.ts";
import type { GrantLimits } from "./run-grant.ts";

const REAL_KEY = "sk-real-upstream-key-0123456789";

type Emitted = { type: string; data: Record<string, unknown> };

async function setup(limits: GrantLimits = {}, scenario: Parameters<typeof ModelTwin.start>[0] = {}) {
  const twin = await ModelTwin.start(scenario);
  const upstream = { baseUrl: twin.url, key: REAL_KEY };
  const proxy = await InferenceProxy.start({ upstreams: { anthropic: upstream, openai: upstream, gemini: upstream } });
  const events: Emitted[] = [];
  const grant = proxy.issue({ limits, emit: (type, data) => events.push({ type, data }) });
  return {
    twin,
    proxy,
    grant,
    events,
    completed: () => events.filter((e) => e.type === "model.request.completed").map((e) => e.data),
    async [Symbol.asyncDispose]() {
      await proxy.close();
      await twin.close();
    },
  };
}

const anthropicBody = { model: "claude-sonnet-4-5", max_tokens: 100, stream: true, messages: [{ role: "user", content: "Say hello." }] };

function anthropic(proxy: InferenceProxy, token: string, body: unknown = anthropicBody): Promise<Response> {
  return fetch(`${proxy.baseUrl("anthropic")}/v1/messages?beta=true`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": token, "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });
}

/** The model calls the twin answered (discovery calls left out). */
function modelCalls(twin: ModelTwin) {
  return twin.requests.filter((r) => r.api !== null);
}

describe("the inference proxy against the model twin", () => {
  test("each wire API: streamed answer passed through, usage read and priced, one event per call", async () => {
    await using s = await setup();
    const streamed = await anthropic(s.proxy, s.grant.token);
    assert.equal(streamed.status, 200);
    assert.match(await streamed.text(), /message_delta/);

    const chat = await fetch(`${s.proxy.baseUrl("openai")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${s.grant.token}` },
      body: JSON.stringify({ model: "gpt-4.1", stream: true, messages: [{ role: "user", content: "Say hello." }] }),
    });
    assert.match(await chat.text(), /\[DONE\]/);
    const responses = await fetch(`${s.proxy.baseUrl("openai")}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${s.grant.token}` },
      body: JSON.stringify({ model: "gpt-5-codex", stream: true, input: "Say hello." }),
    });
    assert.match(await responses.text(), /response.completed/);
    const gemini = await fetch(`${s.proxy.baseUrl("gemini")}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": s.grant.token },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "Say hello." }] }] }),
    });
    assert.match(await gemini.text(), /usageMetadata/);

    const events = s.completed();
    assert.deepEqual(
      events.map((e) => [e["api"], e["model"], e["status"], e["cost_source"]]),
      [
        ["anthropic_messages", "claude-sonnet-4-5", 200, "table"],
        ["openai_chat", "gpt-4.1", 200, "table"],
        ["openai_responses", "gpt-5-codex", 200, "table"],
        ["gemini", "gemini-2.5-flash", 200, "table"],
      ],
    );
    for (const e of events) {
      assert.ok((e["input_tokens"] as number) > 0 && (e["output_tokens"] as number) > 0, JSON.stringify(e));
      assert.ok((e["cost_usd"] as number) > 0, JSON.stringify(e));
      assert.equal(typeof e["ttfb_ms"], "number");
    }
    // include_usage was added to the streamed chat request.
    const chatBody = modelCalls(s.twin)[1]?.body as { stream_options?: { include_usage?: boolean } };
    assert.equal(chatBody.stream_options?.include_usage, true);
    assert.equal(modelCalls(s.twin).length, 4);
  });

  test("the twin gets the real key in each provider's header, never the run token", async () => {
    const seen: string[] = [];
    const { createServer } = await import("node:http");
    const upstream = createServer((req, res) => {
      seen.push(JSON.stringify(req.headers) + req.url);
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const port = (upstream.address() as { port: number }).port;
    const base = { baseUrl: `http://127.0.0.1:${port}`, key: REAL_KEY };
    await using proxy = await InferenceProxy.start({ upstreams: { anthropic: base, openai: base, gemini: base } });
    const grant = proxy.issue({ limits: {}, emit: () => {} });
    await (await anthropic(proxy, grant.token, { ...anthropicBody, stream: false })).text();
    await (await fetch(`${proxy.baseUrl("openai")}/responses`, { method: "POST", headers: { authorization: `Bearer ${grant.token}` }, body: "{}" })).text();
    await (await fetch(`${proxy.baseUrl("gemini")}/v1beta/models/g:generateContent?key=${grant.token}`, { method: "POST", body: "{}" })).text();
    upstream.close();
    assert.equal(seen.length, 3);
    assert.match(seen[0] ?? "", new RegExp(`"x-api-key":"${REAL_KEY}"`));
    assert.match(seen[1] ?? "", new RegExp(`"authorization":"Bearer ${REAL_KEY}"`));
    assert.match(seen[2] ?? "", new RegExp(`"x-goog-api-key":"${REAL_KEY}"`));
    for (const line of seen) assert.ok(!line.includes(grant.token), line);
  });

  test("a large body, and a body the agent streams in chunks, reach the upstream whole with their length; a body over 64 MiB is refused", { timeout: 60_000 }, async () => {
    const got: Array<{ length: string | undefined; encoding: string | undefined; body: string }> = [];
    const { createServer } = await import("node:http");
    const upstream = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on("data", (part: Buffer) => parts.push(part));
      req.on("end", () => {
        got.push({ length: req.headers["content-length"], encoding: req.headers["transfer-encoding"], body: Buffer.concat(parts).toString() });
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const base = { baseUrl: `http://127.0.0.1:${(upstream.address() as { port: number }).port}`, key: REAL_KEY };
    await using proxy = await InferenceProxy.start({ upstreams: { anthropic: base } });
    const grant = proxy.issue({ limits: {}, emit: () => {} });
    try {
      const large = JSON.stringify({ ...anthropicBody, stream: false, messages: [{ role: "user", content: "x".repeat(5 * 1024 * 1024) }] });
      const answer = await fetch(`${proxy.baseUrl("anthropic")}/v1/messages`, { method: "POST", headers: { "x-api-key": grant.token }, body: large });
      assert.equal(answer.status, 200);
      await answer.text();
      const streamed = JSON.stringify({ ...anthropicBody, stream: false });
      const pieces = [streamed.slice(0, 10), streamed.slice(10, 40), streamed.slice(40)];
      const body = new ReadableStream({
        start(controller) {
          for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
          controller.close();
        },
      });
      const chunked = await fetch(`${proxy.baseUrl("anthropic")}/v1/messages`, { method: "POST", headers: { "x-api-key": grant.token }, body, duplex: "half" } as RequestInit);
      assert.equal(chunked.status, 200);
      await chunked.text();
      assert.deepEqual(
        got.map((g) => [g.length, g.encoding, g.body.length]),
        [
          [String(Buffer.byteLength(large)), undefined, large.length],
          [String(streamed.length), undefined, streamed.length],
        ],
      );
      assert.equal(got[1]?.body, streamed);
      // A head whose length is over the limit: refused at once, before any of its body is sent.
      const { connect } = await import("node:net");
      const url = new URL(proxy.baseUrl("anthropic"));
      const refused = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () =>
          socket.write(`POST /anthropic/v1/messages HTTP/1.1\r\nhost: proxy\r\nx-api-key: ${grant.token}\r\ncontent-length: ${65 * 1024 * 1024}\r\n\r\n`),
        );
        let text = "";
        socket.on("data", (bytes: Buffer) => (text += bytes.toString()));
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
      });
      assert.match(refused, /^HTTP\/1\.1 413 Payload Too Large\r\n[\s\S]*connection: close[\s\S]*larger than 67108864 bytes/);
      assert.equal(got.length, 2, "nothing more reached the upstream");
    } finally {
      upstream.close();
    }
  });

  test("an answer's head that comes alone reaches the agent at once, before any of its body", { timeout: 30_000 }, async () => {
    const { createServer } = await import("node:http");
    let sendBody: (() => void) | undefined;
    const upstream = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream", "request-id": "req_head_alone" });
      res.flushHeaders();
      // The body waits for the agent to have seen the head: a proxy holding the head back for a first chunk never gets one.
      sendBody = () => res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const base = { baseUrl: `http://127.0.0.1:${(upstream.address() as { port: number }).port}`, key: REAL_KEY };
    await using proxy = await InferenceProxy.start({ upstreams: { anthropic: base } });
    const grant = proxy.issue({ limits: {}, emit: () => {} });
    const answer = await anthropic(proxy, grant.token);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("request-id"), "req_head_alone");
    assert.ok(sendBody !== undefined, "the upstream has the request");
    sendBody();
    assert.match(await answer.text(), /message_stop/);
    upstream.close();
  });

  test("a wrong token, and the run's token after the run, get a 401 in the provider's shape", async () => {
    await using s = await setup();
    const wrong = await anthropic(s.proxy, "baton-run-not-a-token");
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { error: { type: string } }).error.type, "authentication_error");
    assert.equal((await anthropic(s.proxy, s.grant.token)).status, 200);
    s.proxy.revoke(s.grant);
    const after = await anthropic(s.proxy, s.grant.token);
    assert.equal(after.status, 401);
    await after.text();
    assert.equal(modelCalls(s.twin).length, 1);
  });

  test("a call still open when the run ends is cut and recorded: Baton's count stays the upstream's", async () => {
    await using s = await setup({}, { scenario: { name: "text", fault: { kind: "stall", afterChunks: 1, on: "any" } } });
    const open = await anthropic(s.proxy, s.grant.token);
    assert.equal(open.status, 200, "the answer has begun");
    const reader = open.body?.getReader();
    await reader?.read();
    s.proxy.revoke(s.grant);
    await reader?.read().catch(() => undefined);
    assert.equal(modelCalls(s.twin).length, 1);
    const completed = s.completed();
    assert.equal(completed.length, 1, "the cut call has its model.request.completed");
    assert.equal(completed[0]?.["error"], "the run ended");
  });

  test("a cap of N requests: request N+1 is refused with a 403 before it reaches the upstream, and so is every later one", async () => {
    await using s = await setup({ maxRequests: 2 });
    for (let i = 0; i < 2; i++) assert.equal((await anthropic(s.proxy, s.grant.token)).status, 200);
    const refused = await anthropic(s.proxy, s.grant.token);
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /cap of 2 model requests/);
    assert.equal((await anthropic(s.proxy, s.grant.token)).status, 403);
    assert.equal(modelCalls(s.twin).length, 2);
    assert.deepEqual(
      s.events.map((e) => e.type),
      ["model.request.completed", "model.request.completed", "model.request.refused", "model.request.refused"],
    );
  });

  test("8 parallel streamed requests with 1.5 requests of token budget left: one admitted past the line, the rest refused", async () => {
    const body = anthropicBody;
    const reservation = Math.ceil(JSON.stringify(body).length / 4) + body.max_tokens;
    await using s = await setup({ tokens: Math.floor(reservation * 1.5) }, { scenario: { name: "text", fault: { kind: "slow", delayMs: 300, on: "any" } } });
    const answers = await Promise.all(Array.from({ length: 8 }, () => anthropic(s.proxy, s.grant.token, body)));
    const statuses = answers.map((a) => a.status).sort();
    await Promise.all(answers.map((a) => a.text()));
    assert.deepEqual(statuses, [200, 200, 403, 403, 403, 403, 403, 403]);
    assert.equal(modelCalls(s.twin).length, 2);
  });

  test("upstream faults reach the agent as sent and are counted: 429 with retry-after, 529, a reset", async () => {
    await using s = await setup({}, { scenario: { name: "text", fault: { kind: "status", status: 429, retryAfter: 7, times: 1, on: "any" } } });
    const limited = await anthropic(s.proxy, s.grant.token);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), "7");
    assert.match(await limited.text(), /rate_limit_error|injected 429/);
    s.twin.setScenario({ name: "text", fault: { kind: "status", status: 529, times: 1, on: "any" } });
    const overloaded = await anthropic(s.proxy, s.grant.token);
    assert.equal(overloaded.status, 529);
    await overloaded.text();
    s.twin.setScenario({ name: "text", fault: { kind: "reset", times: 1, on: "any" } });
    await assert.rejects(anthropic(s.proxy, s.grant.token).then((r) => r.text()));
    // Each attempt reached the twin once: the proxy never retries.
    assert.equal(modelCalls(s.twin).length, 3);
    const completed = s.completed();
    assert.deepEqual(completed.map((e) => e["status"]), [429, 529, null]);
    assert.equal(typeof completed[2]?.["error"], "string");
  });

  test("a read or a token count passes uncounted and is listed once at the end; any other call that is not a model call is refused", async () => {
    await using s = await setup({ maxRequests: 1 });
    const headers = { "content-type": "application/json", "x-api-key": s.grant.token, "anthropic-version": "2023-06-01" };
    const models = await fetch(`${s.proxy.baseUrl("anthropic")}/v1/models`, { headers });
    assert.equal(models.status, 200);
    await models.text();
    const count = await fetch(`${s.proxy.baseUrl("anthropic")}/v1/messages/count_tokens`, { method: "POST", headers, body: JSON.stringify({ model: "claude-sonnet-4-5", messages: [] }) });
    assert.equal(count.status, 200);
    await count.text();
    const batch = await fetch(`${s.proxy.baseUrl("anthropic")}/v1/messages/batches`, { method: "POST", headers, body: JSON.stringify({ requests: [] }) });
    assert.equal(batch.status, 403);
    assert.match(((await batch.json()) as { error: { message: string } }).error.message, /POST \/v1\/messages\/batches is none of them/);
    assert.equal(s.twin.requests.some((r) => r.path.includes("batches")), false, "the refused call never reached the upstream");
    // Neither passed call took the cap's one request.
    assert.equal((await anthropic(s.proxy, s.grant.token)).status, 200);
    const refused = s.events.find((e) => e.type === "log" && e.data["code"] === "proxy_call_refused");
    assert.equal(refused?.data["level"], "warn");
    assert.equal(s.events.some((e) => e.data["code"] === "proxy_pass_through"), false, "listed at the end, not per call");
    s.proxy.revoke(s.grant);
    const passed = s.events.find((e) => e.type === "log" && e.data["code"] === "proxy_pass_through");
    assert.match(String(passed?.data["message"]), /passed 2 call\(s\).*anthropic GET \/v1\/models ×1, anthropic POST \/v1\/messages\/count_tokens ×1/);
  });
});
