import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";

export type AllowingClientHooks = {
  /** Sees each permission request before it is allowed. */
  onPermission?: (params: acp.RequestPermissionRequest) => void;
  /** Sees the path of each client fs write after it is written. */
  onWrite?: (path: string) => void;
};

/**
 * An ACP client that allows every permission request once (or by the first allow option) and
 * serves the client fs from the real file system: the plain client that tests and benchmarks
 * drive real agents with, to compare against or to look at an agent without Baton.
 */
export function allowingClient(name: string, hooks: AllowingClientHooks = {}) {
  return acp
    .client({ name })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      hooks.onPermission?.(params);
      const allow = params.options.find((option) => option.kind === "allow_once") ?? params.options.find((option) => option.kind.startsWith("allow"));
      return allow === undefined ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId: allow.optionId } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      try {
        return { content: await readFile(params.path, "utf8") };
      } catch {
        throw acp.RequestError.resourceNotFound(params.path);
      }
    })
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      await mkdir(dirname(params.path), { recursive: true });
      await writeFile(params.path, params.content);
      hooks.onWrite?.(params.path);
      return {};
    });
}
