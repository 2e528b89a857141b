import assert from "node:assert/strict";
import { test } from "node:test";
import { bwrapArgs, type SandboxPlan } from "./bwrap-args.ts";
import { programRoot } from "./sandbox-plan.ts";
import { SANDBOX_PROXY_SOCKET } from "./proxy-relay.ts";

const PLAN: SandboxPlan = {
  cwd: "/tmp/t/repo/.baton/worktrees/1-x",
  links: [{ path: "/bin", target: "usr/bin" }],
  readOnly: ["/usr", "/etc", "/opt/agent"],
  masked: [{ path: "/etc/shadow", folder: false }, { path: "/etc/ssh", folder: true }],
  home: { source: "/tmp/t/repo/.baton/sandbox/home/claude", target: "/home/me" },
  writable: ["/var/cache/tool"],
};

/** The option and its values at each place `option` is given. */
function uses(args: readonly string[], option: string, arity: number): string[][] {
  return args.flatMap((arg, i) => (arg === option ? [args.slice(i + 1, i + 1 + arity)] : []));
}

test("the sandbox has namespaces of its own, no capability, and dies with Baton", () => {
  const args = bwrapArgs(PLAN, "/opt/agent/bin/agent", ["--acp"]);
  for (const option of ["--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--die-with-parent"]) assert.ok(args.includes(option), option);
  assert.deepEqual(uses(args, "--cap-drop", 1), [["ALL"]]);
  assert.deepEqual(args.slice(args.indexOf("--") + 1), ["/opt/agent/bin/agent", "--acp"], "the agent's command comes last, as it was");
  assert.deepEqual(uses(args, "--chdir", 1), [[PLAN.cwd]]);
});

test("system and program folders are read-only, secrets masked, home, extra and worktree writable, in that order", () => {
  const args = bwrapArgs(PLAN, "/opt/agent/bin/agent", []);
  assert.deepEqual(uses(args, "--ro-bind", 2), [["/usr", "/usr"], ["/etc", "/etc"], ["/opt/agent", "/opt/agent"], ["/dev/null", "/etc/shadow"]]);
  assert.deepEqual(uses(args, "--bind", 2), [[PLAN.home?.source, "/home/me"], ["/var/cache/tool", "/var/cache/tool"], [PLAN.cwd, PLAN.cwd]]);
  assert.ok(uses(args, "--tmpfs", 1).some(([path]) => path === "/etc/ssh"));
  assert.ok(args.indexOf("--remount-ro") > args.lastIndexOf("--bind"), "the root is made read-only after every mount");
});

test("folders above the worktree inside /tmp are made read-only once, so a write beside the worktree fails", () => {
  const args = bwrapArgs(PLAN, "/a", []);
  const dirs = uses(args, "--dir", 1).map(([dir]) => dir);
  assert.deepEqual(dirs, ["/tmp/t", "/tmp/t/repo", "/tmp/t/repo/.baton", "/tmp/t/repo/.baton/worktrees"]);
  // The repository's git folder is bound first: the folders above the worktree are still made read-only, each once.
  const withGit = bwrapArgs({ ...PLAN, readOnly: [...PLAN.readOnly, "/tmp/t/repo/.git"], writable: ["/tmp/t/repo/.git/worktrees/1-x"] }, "/a", []);
  assert.deepEqual(uses(withGit, "--dir", 1).map(([dir]) => dir), ["/tmp/t", "/tmp/t/repo", "/tmp/t/repo/.baton", "/tmp/t/repo/.baton/worktrees"]);
  assert.ok(uses(args, "--perms", 1).every(([mode]) => mode === "0555"));
});

test("with the proxy, the relay starts first and binds the proxy's socket, then execs the agent", () => {
  const args = bwrapArgs({ ...PLAN, relay: { node: "/opt/node/bin/node", port: 41234, socket: "/tmp/baton-proxy-x/proxy.sock" } }, "/opt/agent/bin/agent", ["--acp"]);
  assert.ok(uses(args, "--ro-bind", 2).some(([source, target]) => source === "/tmp/baton-proxy-x/proxy.sock" && target === SANDBOX_PROXY_SOCKET));
  const after = args.slice(args.indexOf("--") + 1);
  assert.equal(after[0], "/bin/sh");
  assert.deepEqual(after.slice(4), ["/opt/node/bin/node", "41234", SANDBOX_PROXY_SOCKET, "/opt/agent/bin/agent", "--acp"]);
});

test("a program's folder is its package tree, or its project's checkout", () => {
  const here = new URL(".", import.meta.url).pathname;
  const root = programRoot(new URL("./bwrap-args.ts", import.meta.url).pathname);
  assert.ok(here.startsWith(root) && root !== here.replace(/\/$/, ""), `the checkout holding node_modules: ${root}`);
  assert.ok(!programRoot(process.execPath).includes("/node_modules/"));
});
