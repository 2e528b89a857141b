import assert from "node:assert/strict";
import { test } from "node:test";
import { mkdir, rename, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { testTempDir } from "@baton/protocol/testing";
import { followPath, followPathBelow, resolveFolder, resolveFolderOnce, type ResolvedFolder } from "./follow-path.ts";

test("a path followed on from its resolved folder lands where it lands followed whole", async () => {
  const base = await testTempDir("follow-below-");
  const outside = await testTempDir("follow-below-outside-");
  await mkdir(join(base, "real", "sub"), { recursive: true });
  // The folder itself is reached through a link, and links below it point in and out.
  await symlink(join(base, "real"), join(base, "root"));
  const root = join(base, "root");
  await symlink("sub", join(root, "in"));
  await symlink(outside, join(root, "out"));
  await symlink(join(outside, "not-yet"), join(root, "dangling"));
  await symlink("loop-b", join(root, "loop-a"));
  await symlink("loop-a", join(root, "loop-b"));
  const folder = resolveFolder(root);
  assert.ok(folder !== undefined);
  assert.equal(folder.resolved, join(base, "real"));
  for (const rest of ["a.txt", "in/a.txt", "out/a.txt", "in/../../escape.txt", "dangling/x/y", "missing/x/../y", "loop-a", "../sibling"]) {
    // join() would fold `..`: the path as written, the way an agent sends it.
    const written = `${root}/${rest}`;
    assert.equal(followPathBelow(folder, written), followPath(written), rest);
  }
  assert.equal(followPathBelow(folder, join(outside, "other.txt")), followPath(join(outside, "other.txt")), "a path not below the folder is followed whole");
});

test("below a folder that is missing, nothing more is looked up", async () => {
  const base = await testTempDir("follow-below-missing-");
  const folder = resolveFolder(join(base, "gone", "deeper"));
  assert.ok(folder !== undefined);
  assert.deepEqual({ resolved: folder.resolved, missing: folder.missing }, { resolved: join(base, "gone", "deeper"), missing: true });
  assert.equal(followPathBelow(folder, join(base, "gone", "deeper", "x", "..", "y")), join(base, "gone", "deeper", "y"));
  assert.equal(followPath(join(base, "gone", "deeper", "x", "..", "y")), join(base, "gone", "deeper", "y"));
});

test("a folder resolved once is resolved again when it, or a folder above it, is moved or replaced by a link", async () => {
  const base = await testTempDir("follow-once-");
  const outside = await testTempDir("follow-once-outside-");
  const root = join(base, "repo", "work");
  await mkdir(root, { recursive: true });
  assert.equal(resolveFolderOnce(root)?.resolved, root);
  assert.equal(resolveFolderOnce(root)?.resolved, root, "the same folder, kept");
  // The folder itself becomes a link that leads out.
  await rename(root, join(base, "repo", "moved"));
  await symlink(outside, root);
  assert.equal(resolveFolderOnce(root)?.resolved, outside);
  assert.equal(followPathBelow(resolveFolderOnce(root) as ResolvedFolder, join(root, "a.txt")), join(outside, "a.txt"));
  // A folder above it is replaced by a link to another tree that has a folder of that name.
  await rm(root);
  await mkdir(root);
  assert.equal(resolveFolderOnce(root)?.resolved, root);
  await mkdir(join(outside, "elsewhere", "work"), { recursive: true });
  await rename(join(base, "repo"), join(base, "repo-before"));
  await symlink(join(outside, "elsewhere"), join(base, "repo"));
  assert.equal(resolveFolderOnce(root)?.resolved, join(outside, "elsewhere", "work"));
  // Gone: resolved as missing, and not kept.
  await rm(join(base, "repo"));
  assert.equal(resolveFolderOnce(root)?.missing, true);
  await mkdir(root, { recursive: true });
  assert.deepEqual({ resolved: resolveFolderOnce(root)?.resolved, missing: resolveFolderOnce(root)?.missing }, { resolved: root, missing: false });
});

test("a folder reached through a link is kept while both its path and its real path lead to the same directory", async () => {
  const base = await testTempDir("follow-once-link-");
  await mkdir(join(base, "real-a"));
  await mkdir(join(base, "real-b"));
  await symlink(join(base, "real-a"), join(base, "root"));
  const root = join(base, "root");
  assert.equal(resolveFolderOnce(root)?.resolved, join(base, "real-a"));
  // The link is pointed elsewhere: the real path still exists, but the folder's path no longer leads there.
  await rm(root);
  await symlink(join(base, "real-b"), root);
  assert.equal(resolveFolderOnce(root)?.resolved, join(base, "real-b"));
});
