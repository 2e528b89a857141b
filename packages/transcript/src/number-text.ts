/**
 * A number as `toLocaleString("en-US")` writes it (`1,234,567`). Integers are grouped here: the
 * first `toLocaleString` of a process sets up ICU's number formatting (about 20 ms), which a
 * transcript written as a run ends would pay for its durations and counts. Other numbers (a
 * fraction, one past 2^53) are still ICU's to write.
 */
export function numberText(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return n < 0 || Object.is(n, -0) ? `-${grouped}` : grouped;
}
