#!/usr/bin/env node
// The scripted fake ACP agent as an executable:
//   node packages/testkit/src/fake-agent/bin.ts --script FILE
//   node packages/testkit/src/fake-agent/bin.ts --script-json '[{"say": "hi"}]'
import { enableCompileCache } from "node:module";

// Tests and benchmarks start this process hundreds of times; caching the compiled SDK and
// zod cuts startup by about a third. The cache must be on before those modules load, hence
// the dynamic import below. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
enableCompileCache();
const { runFakeAgentProcess } = await import("./agent-process.ts");
await runFakeAgentProcess(process.argv.slice(2));
