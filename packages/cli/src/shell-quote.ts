/** A word as a POSIX shell reads it back: as it is when it holds nothing the shell treats specially, else in single quotes. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
