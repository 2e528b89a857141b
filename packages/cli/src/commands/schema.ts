import { buildJsonSchema } from "@baton/protocol";
import { EXIT, type CliContext } from "../context.ts";

export async function schemaCommand(ctx: CliContext): Promise<number> {
  ctx.stdout.write(`${JSON.stringify(buildJsonSchema(), null, 2)}\n`);
  return EXIT.succeeded;
}
