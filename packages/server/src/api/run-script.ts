import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { apiError } from "../http/api-errors.ts";
import { printable } from "./params.ts";

/**
 * The fake agent's script of a run started through the API: the steps themselves (a JSON
 * array, or `{"turns": …}`), or a file inside the project. Never any other path on the
 * machine: the CLI reads the file, and what it says about a file it cannot use must not become
 * a way to read files the API does not serve.
 */
export type RunScript = { steps: unknown } | { path: string };

/**
 * The real path of a script file named relative to the project root (or absolutely, inside
 * it). A path that leaves the project, lexically or through a symbolic link, is refused with
 * the same answer whether or not the file exists, and nothing of it is read here.
 */
export async function projectScriptPath(path: string, projectRoot: string): Promise<string> {
  const outside = apiError("bad_request", `"script": "${printable(path)}" is not a file in the project`, 'name a file inside the project, relative to its root, or send the steps themselves as "script"');
  const root = await realpath(projectRoot);
  const given = resolve(projectRoot, path);
  if (!isInside(resolve(projectRoot), given) && !isInside(root, given)) throw outside;
  const real = await realpath(given).catch(() => undefined);
  if (real === undefined || !isInside(root, real)) throw outside;
  const info = await stat(real);
  if (!info.isFile()) throw outside;
  return real;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && rel.split(sep)[0] !== ".." && !isAbsolute(rel);
}
