import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "./reply-writer.ts";
import type { TwinRequestRecord } from "./request-log.ts";
import { parseScenario, ScenarioError } from "./scenario.ts";
import type { Scenario } from "./scenario.ts";

/** Prefix of the twin's own endpoints; model clients never call it. */
export const CONTROL_PREFIX = "/_twin/";

export type ControlTarget = {
  readonly scenario: Scenario;
  setScenario(scenario: Scenario): void;
  readonly requests: readonly TwinRequestRecord[];
  clearRequests(): void;
};

/**
 * The control API, for a twin running as a separate process:
 *   GET  /_twin/scenario          the current scenario
 *   POST /_twin/scenario          switch (body: a scenario object or name); 400 on a bad one
 *   GET  /_twin/requests          the request log as a JSON array
 *   DELETE /_twin/requests        clears the in-memory log (the file keeps everything)
 */
export function handleControl(request: IncomingMessage, response: ServerResponse, path: string, body: unknown, twin: ControlTarget): void {
  const route = `${request.method} ${path}`;
  if (route === "GET /_twin/scenario") return sendJson(response, 200, { scenario: twin.scenario });
  if (route === "POST /_twin/scenario") {
    try {
      const scenario = parseScenario(body);
      twin.setScenario(scenario);
      return sendJson(response, 200, { scenario });
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error;
      return sendJson(response, 400, { error: { code: error.code, message: error.message } });
    }
  }
  if (route === "GET /_twin/requests") return sendJson(response, 200, twin.requests);
  if (route === "DELETE /_twin/requests") {
    twin.clearRequests();
    response.writeHead(204).end();
    return;
  }
  sendJson(response, 404, { error: { code: "not_found", message: `the model twin has no control endpoint ${route}` } });
}
