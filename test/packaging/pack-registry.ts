// A registry for the @baton scope that serves the tarballs `npm pack` just made, as the public
// registry would serve them once published: npm installs `@baton/cli` and resolves its
// `@baton/*` dependencies here (`--@baton:registry=<url>`), everything else from the npm
// registry or its cache as for any user.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";
import { promisify } from "node:util";
import { execFile } from "node:child_process";

const execFileAsync = promisify(execFile);

/** A packed package: its manifest (the package.json inside the tarball) and the tarball's bytes. */
type Packed = { manifest: { name: string; version: string } & Record<string, unknown>; tarball: Buffer; file: string };

export type PackRegistry = { url: string; close: () => Promise<void> };

/** Reads `package/package.json` out of each tarball and serves them all at 127.0.0.1. */
export async function startPackRegistry(tarballs: readonly string[]): Promise<PackRegistry> {
  const packs = new Map<string, Packed>();
  for (const file of tarballs) {
    const { stdout } = await execFileAsync("tar", ["-xOzf", file, "package/package.json"], { encoding: "utf8" });
    const manifest = JSON.parse(stdout) as Packed["manifest"];
    packs.set(manifest.name, { manifest, tarball: await readFile(file), file: basename(file) });
  }
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://registry").pathname).slice(1);
    const byFile = [...packs.values()].find((pack) => path === `tarballs/${pack.file}`);
    if (byFile !== undefined) {
      response.writeHead(200, { "content-type": "application/octet-stream" }).end(byFile.tarball);
      return;
    }
    const pack = packs.get(path);
    if (pack === undefined) {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: `not found: ${path}` }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument(pack, url)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))) };
}

function packument(pack: Packed, url: string): Record<string, unknown> {
  const { name, version } = pack.manifest;
  const integrity = `sha512-${createHash("sha512").update(pack.tarball).digest("base64")}`;
  const shasum = createHash("sha1").update(pack.tarball).digest("hex");
  return {
    name,
    "dist-tags": { latest: version },
    versions: { [version]: { ...pack.manifest, _id: `${name}@${version}`, dist: { tarball: `${url}tarballs/${pack.file}`, integrity, shasum } } },
  };
}
