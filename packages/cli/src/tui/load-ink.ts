import type * as Ink from "ink";

/**
 * ink, loaded for a terminal UI. When ink is first imported it reads `CI` (and
 * `CONTINUOUS_INTEGRATION`), and if one is set it draws nothing until the UI ends, then only
 * the last frame, as suits a CI job's log. `baton tui` runs only on a terminal (it refuses
 * without one), so it loads ink with those two variables set aside, then puts them back: a
 * shell that exports `CI` still gets a live screen. Load ink through this before any module
 * that imports it.
 */
export async function loadInk(): Promise<typeof Ink> {
  const names = ["CI", "CONTINUOUS_INTEGRATION"] as const;
  const saved = names.map((name) => [name, process.env[name]] as const);
  for (const name of names) delete process.env[name];
  try {
    return await import("ink");
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
