import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { BatonError } from "../errors.ts";

/**
 * The text of a config file, or undefined when there is none. Anything else that keeps it
 * from being read (a directory or a pipe in its place, no permission, a symlink loop) is one
 * `bad_config` error naming the file and what to do.
 */
export async function readConfigText(path: string): Promise<string | undefined> {
  let file;
  try {
    // O_NONBLOCK: a named pipe in the file's place opens without waiting for a writer (and
    // is then refused below); it changes nothing for a regular file.
    file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw unreadable(path, code);
  }
  try {
    const stat = await file.stat();
    if (stat.isDirectory()) {
      throw new BatonError("bad_config", `${path} is a directory, not a file`, { hint: "remove it (or move it away) to use the defaults, or put a config.toml file in its place" });
    }
    if (!stat.isFile()) throw new BatonError("bad_config", `${path} is not a regular file`, { hint: "replace it with a config.toml file, or remove it to use the defaults" });
    return await file.readFile("utf8");
  } catch (error) {
    if (error instanceof BatonError) throw error;
    throw unreadable(path, (error as NodeJS.ErrnoException).code);
  } finally {
    await file.close();
  }
}

function unreadable(path: string, code: string | undefined): BatonError {
  if (code === "EACCES" || code === "EPERM") {
    return new BatonError("bad_config", `${path} cannot be read: permission denied`, { hint: `let your user read it (chmod u+r ${path}), or remove it to use the defaults` });
  }
  return new BatonError("bad_config", `${path} cannot be read (${code ?? "unknown error"})`, { hint: "replace it with a readable config.toml file, or remove it to use the defaults" });
}
