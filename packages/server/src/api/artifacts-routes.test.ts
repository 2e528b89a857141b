import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { AUTH, beginRun, makeProject, testApp } from "../testing/server-fixtures.ts";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

test("GET artifacts lists a run's captured files and serves each by sha256: pictures inline, the rest as downloads, never a symlink", async (t) => {
  const project = await makeProject("server-artifacts-");
  t.after(() => project.store.close());
  const writer = await beginRun(project.store, "capture");
  const png = "\x89PNG fake";
  const html = "<script>alert(1)</script>";
  const link = "l".repeat(64);
  writer.append("artifact.captured", { path: "shots/home.png", bytes: png.length, sha256: sha(png), media_type: "image/png" }, { id: "test", visit: 1 });
  writer.append("artifact.captured", { path: "coverage/index.html", bytes: html.length, sha256: sha(html), media_type: "text/html" });
  await writer.close();
  const dir = join(project.store.runDir(writer.runId), "artifacts");
  await mkdir(dir);
  await writeFile(join(dir, sha(png)), png, "latin1");
  await writeFile(join(dir, sha(html)), html);
  await writeFile(join(project.root, "secret.txt"), "do not serve\n");
  await symlink(join(project.root, "secret.txt"), join(dir, sha("secret")));
  const { app } = testApp(project.store, project.root);
  const get = (path: string) => app.request(path, { headers: AUTH });

  const listed = (await (await get(`/api/runs/${writer.number}/artifacts`)).json()) as { artifacts: Array<{ path: string; stage?: string; url: string }> };
  assert.deepEqual(listed.artifacts.map((a) => [a.path, a.stage]), [["coverage/index.html", undefined], ["shots/home.png", "test"]]);
  const picture = await get(listed.artifacts[1]?.url ?? "");
  assert.equal(picture.status, 200);
  assert.equal(picture.headers.get("content-type"), "image/png");
  assert.match(picture.headers.get("content-disposition") ?? "", /^inline/);
  const page = await get(listed.artifacts[0]?.url ?? "");
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /^text\/plain/, "HTML is never rendered from Baton's origin");
  assert.match(page.headers.get("content-disposition") ?? "", /^attachment/);
  assert.equal(await page.text(), html);
  const secret = await get(`/api/runs/${writer.number}/artifacts/${sha("secret")}`);
  assert.equal(secret.status, 404, await secret.text());
  assert.equal((await get(`/api/runs/${writer.number}/artifacts/${link}`)).status, 400);
  assert.equal((await get(`/api/runs/${writer.number}/artifacts/..%2F..%2Fevents.jsonl`)).status, 400);
  assert.equal((await get(`/api/runs/99/artifacts`)).status, 404);
});
