#!/usr/bin/env node
// The model twin as a process: prints its base URL as one line, serves until SIGINT or SIGTERM.
//   node packages/testkit/src/model-twin/bin.ts --port 0 --scenario write --log requests.ndjson
import { readTwinArgs } from "./bin-args.ts";
import { ModelTwin } from "./model-twin.ts";

let options;
try {
  options = readTwinArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
const twin = await ModelTwin.start(options);
process.stdout.write(`${twin.url}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    twin.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
