import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { tokenOf } from "./inference-proxy.ts";
import { answerHeaders, upstreamHeaders, upstreamPath, upstreamTarget } from "./upstream-request.ts";

describe("upstream requests", () => {
  test("a target is read once from the base URL: host, port, path, the Host header and the key's header", () => {
    const anthropic = upstreamTarget("anthropic", { baseUrl: "https://api.anthropic.com", key: "sk-a" });
    assert.deepEqual(
      { host: anthropic.host, port: anthropic.port, secure: anthropic.secure, servername: anthropic.servername, basePath: anthropic.basePath, fixed: anthropic.fixedHeaders },
      { host: "api.anthropic.com", port: 443, secure: true, servername: "api.anthropic.com", basePath: "", fixed: ["host", "api.anthropic.com", "x-api-key", "sk-a"] },
    );
    const gateway = upstreamTarget("openai", { baseUrl: "http://127.0.0.1:8080/gw/openai/", key: "sk-o" });
    assert.deepEqual(
      { host: gateway.host, port: gateway.port, secure: gateway.secure, servername: gateway.servername, basePath: gateway.basePath, fixed: gateway.fixedHeaders },
      { host: "127.0.0.1", port: 8080, secure: false, servername: "", basePath: "/gw/openai", fixed: ["host", "127.0.0.1:8080", "authorization", "Bearer sk-o"] },
    );
    const v6 = upstreamTarget("gemini", { baseUrl: "https://[::1]:9443", key: "g" });
    assert.deepEqual([v6.host, v6.port, v6.servername, v6.fixedHeaders], ["::1", 9443, "", ["host", "[::1]:9443", "x-goog-api-key", "g"]]);
  });

  test("a plain path goes on as it came, after the base URL's path; others as the URL parser makes them, without the key", () => {
    const target = upstreamTarget("gemini", { baseUrl: "https://gw.example/base/", key: "g" });
    assert.equal(upstreamPath(target, "/v1/messages?beta=true"), "/base/v1/messages?beta=true");
    assert.equal(upstreamPath(target, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"), "/base/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assert.equal(upstreamPath(target, "/v1beta/models/gemini-2.5-flash:generateContent?key=baton-run-x&alt=sse"), "/base/v1beta/models/gemini-2.5-flash:generateContent?alt=sse");
    assert.equal(upstreamPath(target, "/v1beta/models?alt=json&key=baton-run-x"), "/base/v1beta/models?alt=json");
    assert.equal(upstreamPath(target, "/v1/models?monkey=1"), "/base/v1/models?monkey=1");
    assert.equal(upstreamPath(target, "/v1beta/models?%6Bey=baton-run-x&alt=sse"), "/base/v1beta/models?alt=sse");
    assert.equal(upstreamPath(target, "/v1beta/models?KEY=1"), "/base/v1beta/models?KEY=1");
    assert.equal(upstreamPath(target, "/v1/../../etc"), "/etc");
    assert.equal(upstreamPath(target, "/v1/%2E%2E/x"), "/base/x");
    assert.equal(upstreamPath(target, "/v1/a\"b"), "/base/v1/a%22b");
  });

  test("the head sent upstream: the agent's headers as they came, without its token, hop-by-hop ones and encodings; the real key, identity, the length", () => {
    const target = upstreamTarget("openai", { baseUrl: "https://api.openai.com", key: "sk-real" });
    const raw = ["Host", "127.0.0.1:4000", "Authorization", "Bearer baton-run-x", "Content-Type", "application/json", "Accept-Encoding", "gzip", "X-Stainless-Lang", "js", "Connection", "keep-alive", "Content-Length", "12", "OpenAI-Beta", "a", "OpenAI-Beta", "b", "api-key", "t"];
    assert.deepEqual(upstreamHeaders(target, raw, 40), [
      "Content-Type",
      "application/json",
      "X-Stainless-Lang",
      "js",
      "OpenAI-Beta",
      "a",
      "OpenAI-Beta",
      "b",
      "host",
      "api.openai.com",
      "authorization",
      "Bearer sk-real",
      "accept-encoding",
      "identity",
      "content-length",
      "40",
    ]);
  });

  test("the answer's head passed to the agent keeps its length and drops hop-by-hop headers", () => {
    const raw = ["Content-Type", "text/event-stream", "Transfer-Encoding", "chunked", "Connection", "keep-alive", "Retry-After", "3", "Content-Length", "7", "request-id", "r1"];
    assert.deepEqual(answerHeaders(raw), ["Content-Type", "text/event-stream", "Retry-After", "3", "Content-Length", "7", "request-id", "r1"]);
  });

  test("the run token is read from the head as it came, in the order the SDKs use, or from Gemini's key= query", () => {
    const token = (rawHeaders: string[], url = "/anthropic/v1/messages") => tokenOf({ rawHeaders, url });
    assert.equal(token(["X-Api-Key", "t1", "Authorization", "Bearer t2"]), "t1");
    assert.equal(token(["authorization", "bearer  t2", "x-goog-api-key", "t3"]), "t2");
    assert.equal(token(["Authorization", "t4"]), "t4");
    assert.equal(token(["x-api-key", "", "x-api-key", "t5"]), "t5");
    assert.equal(token(["X-Goog-Api-Key", "t6"], "/gemini/v1beta/models?key=t7"), "t6");
    assert.equal(token(["Api-Key", "t8"]), "t8");
    assert.equal(token([], "/gemini/v1beta/models/g:generateContent?alt=sse&key=t9"), "t9");
    assert.equal(token([], "/gemini/v1beta/models?monkey=1"), undefined);
  });
});
