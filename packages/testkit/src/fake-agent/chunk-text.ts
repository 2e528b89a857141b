/**
 * About how much text one streamed chunk carries. Real agents stream a few tokens at a time;
 * small chunks make sure Baton's joining of deltas is exercised, not bypassed.
 */
export const CHUNK_TARGET_CHARS = 16;

/**
 * Splits text into chunks of a few words (about `target` characters), cutting between words
 * where it can and inside a long word only at code point boundaries. Joining the chunks gives
 * back the text exactly.
 *
 * @example chunkText("the quick brown fox jumps over", 10) // => ["the quick ", "brown fox ", "jumps over"]
 */
export function chunkText(text: string, target: number = CHUNK_TARGET_CHARS): string[] {
  const chunks: string[] = [];
  let current = "";
  // Each word keeps the whitespace that follows it, so nothing is lost between chunks.
  for (const word of text.match(/\S+\s*|\s+/gu) ?? []) {
    if (current.length > 0 && current.length + word.length > target) {
      chunks.push(current);
      current = "";
    }
    if (word.length <= target) {
      current += word;
      continue;
    }
    for (const piece of splitLongWord(word, target)) {
      if (current.length > 0) chunks.push(current);
      current = piece;
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function splitLongWord(word: string, target: number): string[] {
  const pieces: string[] = [];
  let piece = "";
  for (const codePoint of word) {
    if (piece.length + codePoint.length > target && piece.length > 0) {
      pieces.push(piece);
      piece = "";
    }
    piece += codePoint;
  }
  if (piece.length > 0) pieces.push(piece);
  return pieces;
}
