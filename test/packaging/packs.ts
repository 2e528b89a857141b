// Baton's packages as a user gets them: built, packed by npm, installed outside the checkout.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import { testTempDir } from "@baton/protocol/testing";

export const ROOT = join(import.meta.dirname, "..", "..");

/** Longest an npm install from the cache may take on a loaded 2-core CI machine. */
export const INSTALL_TIMEOUT_MS = 600_000;

/**
 * The environment of a user's shell on a machine whose system Node is `node`: first on PATH,
 * no NODE_OPTIONS (the checkout's source condition is not theirs), npm quiet about updates.
 */
export function userEnv(node: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  // The machine's network settings (a CA its TLS goes through, a proxy) are the user's too:
  // without them npm cannot reach the registry for what its cache does not hold.
  const network = ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy", "npm_config_registry", "npm_config_cafile"];
  for (const name of ["HOME", "LANG", "TMPDIR", ...network]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const path = [dirname(node), ...(process.env["PATH"] ?? "/usr/bin:/bin").split(delimiter)].join(delimiter);
  return { ...env, PATH: path, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", ...extra };
}

/** A Node older than 24 on this machine (on PATH or the usual places), if there is one. */
export function olderNode(): string | undefined {
  const candidates = [...(process.env["PATH"] ?? "").split(delimiter).map((dir) => join(dir, "node")), "/usr/bin/node", "/usr/local/bin/node"];
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    try {
      const major = Number(execFileSync(path, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).trim());
      if (major < 24) return path;
    } catch {
      // Not a Node that runs here.
    }
  }
  return undefined;
}

/** Runs a program with no input (npm may wait on an open stdin); its output on failure is in the error. */
export function run(command: string, args: readonly string[], options: { cwd: string; env: Record<string, string> }): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill("SIGKILL"), INSTALL_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(" ")} in ${options.cwd} ended with ${signal ?? code}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    });
  });
}

let packed: Promise<Map<string, string>> | undefined;

/**
 * Builds every package (`tsc -b`, incremental) and packs each with `npm pack`, once per test
 * process: the tarballs by package name.
 */
export function packAll(): Promise<Map<string, string>> {
  packed ??= (async () => {
    const env = userEnv(process.execPath);
    await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-b", "tsconfig.build.json"], { cwd: ROOT, env });
    if (!existsSync(join(ROOT, "packages", "web", "dist", "index.html"))) throw new Error("the web UI is not built: run `npm run build:web` first");
    const destination = join(await testTempDir("packs-"), "tarballs");
    await mkdir(destination);
    const { stdout } = await run("npm", ["pack", "--workspaces", "--json", "--pack-destination", destination], { cwd: ROOT, env });
    const tarballs = new Map<string, string>();
    for (const entry of JSON.parse(stdout) as { name: string; filename: string }[]) tarballs.set(entry.name, join(destination, entry.filename));
    const files = await readdir(destination);
    if (files.length !== tarballs.size) throw new Error(`npm pack wrote ${files.length} files for ${tarballs.size} packages`);
    return tarballs;
  })();
  return packed;
}

/** The tarball of `name`, which must have been packed. */
export function tarballOf(tarballs: Map<string, string>, name: string): string {
  const file = tarballs.get(name);
  if (file === undefined) throw new Error(`no tarball for ${name}; packed: ${[...tarballs.keys()].join(", ")}`);
  return file;
}
