import { z } from "zod";

const absolutePath = z.string().regex(/^\//, "must be an absolute path");

/**
 * `[sandbox]`: where the agent's processes run. `none` (the default): as Baton runs them, in a
 * user namespace of their own (`[isolation]`). `bwrap`: under Debian's bubblewrap, with the
 * run's worktree writable, a private home, the rest of the file system read-only or absent,
 * and no network but Baton's inference proxy. See docs/sandbox.md.
 */
export const sandboxConfigSchema = z
  .strictObject({
    kind: z.enum(["none", "bwrap"]).default("none"),
    /**
     * The folder mounted as the agent's home (at the path its HOME names). Default: a folder of
     * the agent's own under `.baton/sandbox/home/<agent>/`, kept from run to run.
     */
    home: z.string().min(1).optional(),
    /** More paths the agent may read (a toolchain outside /usr, a shared cache). */
    read_only: z.array(absolutePath).default([]),
    /** More paths the agent may write (a package cache). */
    writable: z.array(absolutePath).default([]),
    /** The bubblewrap program; default `bwrap` on PATH. */
    bwrap: z.string().min(1).optional(),
  })
  .prefault({});
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;

/** The config text of `[sandbox]` in the file `baton init` writes. */
export const SANDBOX_CONFIG_TEXT = `[sandbox]
# none: agents run as Baton runs them. bwrap: each agent runs under bubblewrap (apt install
# bubblewrap): its worktree writable, a private home, the rest of the file system read-only or
# absent, its own process and network namespaces, no network but Baton's inference proxy.
# All its processes end with the run. See docs/sandbox.md.
kind = "none"
# home = "/path/to/agent-home"   # default: .baton/sandbox/home/<agent>/
# read_only = ["/opt/toolchain"]
# writable = ["/var/cache/my-tool"]
`;
