import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import type { FlatNode } from "../dot/flatten.ts";
import { HANDLER_SHAPES, handlerOfId, handlerOfShape, handlerOfType, KNOWN_TYPES } from "./handlers.ts";
import type { Handler } from "./schema.ts";

/**
 * Chooses a node's handler: `type=` first, then a shape written on the node, then the id
 * (`start`, `exit`, `end`), then a shape from `node [...]` defaults, then `box` (agent). The
 * id comes before a default so that `node [shape=box]` at the top does not turn `start` into an
 * agent. An unknown type is an error; a shape without a handler runs as an agent, with a warning.
 */
export function resolveNodeHandler(node: FlatNode, file: string, report: (d: Diagnostic) => void): { handler: Handler; shape: string } {
  // `shape=""` says nothing: read as no shape at all.
  const shapeAttr = node.attrs.get("shape")?.value.trim() ? node.attrs.get("shape") : undefined;
  const typeAttr = node.attrs.get("type");
  const drawnAs = (handler: Handler) => shapeAttr?.value ?? HANDLER_SHAPES[handler];

  if (typeAttr !== undefined) {
    const handler = handlerOfType(typeAttr.value);
    if (handler !== undefined) return { handler, shape: drawnAs(handler) };
    report(diagnostic(file, typeAttr.pos, "error", "unknown-handler", `stage "${node.id}" has type="${typeAttr.value}", which is no handler Baton knows`, `use one of ${KNOWN_TYPES.join(", ")}`));
    return { handler: "agent", shape: drawnAs("agent") };
  }
  const byId = handlerOfId(node.id);
  if (shapeAttr !== undefined && (!shapeAttr.fromDefault || byId === undefined)) {
    const handler = handlerOfShape(shapeAttr.value);
    if (handler !== undefined) return { handler, shape: shapeAttr.value };
    report(
      diagnostic(file, shapeAttr.pos, "warning", "unknown-shape", `stage "${node.id}" has shape=${shapeAttr.value}, which selects no handler: it runs as an agent`, "use shape=box for an agent stage, or the shape of the handler you mean (docs/workflows.md)"),
    );
    return { handler: "agent", shape: shapeAttr.value };
  }
  if (byId !== undefined) return { handler: byId, shape: HANDLER_SHAPES[byId] };
  return { handler: "agent", shape: "box" };
}
