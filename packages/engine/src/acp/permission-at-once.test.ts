import assert from "node:assert/strict";
import { test } from "node:test";
import { permissionAnswerLine, wellFormedPermissionRequest } from "./permission-at-once.ts";

const OPTIONS = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];
const request = (params: Record<string, unknown>, id: unknown = 7) => ({
  jsonrpc: "2.0",
  id,
  method: "session/request_permission",
  params: { sessionId: "s1", toolCall: { toolCallId: "c1", kind: "edit", locations: [{ path: "a.txt" }] }, options: OPTIONS, ...params },
});

test("a well-formed permission request is read with its id, tool call and options", () => {
  assert.deepEqual(wellFormedPermissionRequest(request({})), { id: 7, toolCall: { toolCallId: "c1", kind: "edit", locations: [{ path: "a.txt" }] }, options: OPTIONS });
  assert.equal(wellFormedPermissionRequest(request({}, "r-1"))?.id, "r-1");
  // Fields Baton does not read are not its to check; null where the schema allows it is none.
  assert.ok(wellFormedPermissionRequest(request({ toolCall: { toolCallId: "c1", kind: null, locations: null, title: "Edit", rawInput: { path: "a.txt" } } })));
});

test("anything malformed in what Baton decides on is left to the SDK, which validates the request whole", () => {
  const malformed = [
    request({}, null),
    request({}, { not: "an id" }),
    request({ sessionId: 3 }),
    request({ toolCall: { kind: "edit" } }),
    request({ toolCall: { toolCallId: "c1", kind: 5 } }),
    request({ toolCall: { toolCallId: "c1", locations: [{ line: 1 }] } }),
    request({ toolCall: { toolCallId: "c1", locations: "a.txt" } }),
    request({ options: "allow" }),
    request({ options: [{ optionId: "x", name: "X", kind: "maybe" }] }),
    request({ options: [{ optionId: 1, name: "X", kind: "allow_once" }] }),
    { ...request({}), method: "session/update" },
    "not json-rpc",
  ];
  for (const message of malformed) assert.equal(wellFormedPermissionRequest(message), undefined, JSON.stringify(message));
});

test("the answer line is the JSON-RPC result the SDK would send: an option selected, or cancelled", () => {
  assert.deepEqual(JSON.parse(permissionAnswerLine(7, "allow")), { jsonrpc: "2.0", id: 7, result: { outcome: { outcome: "selected", optionId: "allow" } } });
  assert.deepEqual(JSON.parse(permissionAnswerLine("r-1", undefined)), { jsonrpc: "2.0", id: "r-1", result: { outcome: { outcome: "cancelled" } } });
});
