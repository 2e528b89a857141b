/** The accelerator prefixes the dialect writes before an option: `[A] Approve`, `A) Approve`, `A - Approve`. */
const ACCELERATORS = [/^\[(\w+)\]\s*/, /^(\w)\)\s+/, /^(\w) - /];

/**
 * An edge label split into its accelerator key (if any) and the option's words.
 *
 * @example splitAccelerator("[A] Approve") // { key: "A", text: "Approve" }
 */
export function splitAccelerator(label: string): { key: string | undefined; text: string } {
  const trimmed = label.trim();
  for (const pattern of ACCELERATORS) {
    const match = pattern.exec(trimmed);
    if (match !== null) return { key: match[1], text: trimmed.slice(match[0].length).trim() };
  }
  return { key: undefined, text: trimmed };
}

/**
 * The form labels are compared in: accelerator stripped, trimmed, lower case. A preferred
 * label `fix`, `Fix` or `[F] Fix` picks the edge labelled `[F] Fix`.
 *
 * @example normalizeLabel(" [A] Approve ") // "approve"
 */
export function normalizeLabel(label: string): string {
  return splitAccelerator(label).text.toLowerCase();
}
