import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { BatonError } from "../errors.ts";

/** Where an upstream's real key comes from: a variable of Baton's environment, a file, or a command's output. */
export type KeySource = { env: string } | { file: string } | { command: string };

const run = promisify(execFile);

/**
 * Reads an upstream's key, trimmed. Baton reads it; the agent never gets it.
 *
 * @throws BatonError `proxy_key_missing` naming the source when it gives no key, or one that
 * cannot be a header's value.
 */
export async function readKey(source: KeySource, env: Record<string, string | undefined>, provider: string): Promise<string> {
  let key: string | undefined;
  let where: string;
  if ("env" in source) {
    where = `the variable ${source.env}`;
    key = env[source.env];
  } else if ("file" in source) {
    where = `the file ${source.file}`;
    key = await readFile(source.file, "utf8").catch(() => undefined);
  } else {
    where = `the command \`${source.command}\``;
    key = await run("/bin/sh", ["-c", source.command], { timeout: 30_000, env: env as NodeJS.ProcessEnv }).then(
      (out) => out.stdout,
      () => undefined,
    );
  }
  key = key?.trim();
  if (key === undefined || key.length === 0) {
    throw new BatonError("proxy_key_missing", `no key for the ${provider} upstream: ${where} gives none`, {
      hint: `set it, or name another source with key_env, key_file or key_command under [proxy.${provider}]`,
    });
  }
  // The key goes into a header of every request upstream: a line break or a control character there would end the header.
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new BatonError("proxy_key_missing", `no usable key for the ${provider} upstream: ${where} gives a value with spaces, line breaks or characters outside ASCII, which no API key has`, {
      hint: `check ${where}: it must give the key alone, on one line`,
    });
  }
  return key;
}
