// Foreign text made safe for a terminal: shared by every human output of Baton (the CLI's
// renderers, the server's log), pure and without dependencies.

/**
 * Characters a terminal acts on instead of showing: the C0 controls (ESC opens escape
 * sequences that clear the screen, retitle the window or rewrite the clipboard; BEL, BS and CR
 * overwrite), DEL, the C1 controls (U+009B is a CSI by itself on some terminals), and the
 * Unicode format characters that reorder or break a line (bidi marks, embeddings, overrides
 * and isolates; line and paragraph separators). Tab is shown as it is everywhere.
 */
const ACTING = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
/** The same, newline left out: for text laid out over several lines. */
const ACTING_BUT_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** The CR of a CRLF line ending. */
const CR_ENDING_LINE = /\r(?=\n|$)/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r" };

/**
 * Text Baton did not write (a task, an agent's message, a tool's title or output, a file name,
 * a git error, a run ref someone typed), made safe to print on a terminal: every character a
 * terminal would act on is shown as an escape instead (`\x1b`, `\r`, `\u202e`), so an
 * `ESC [2J` clears no screen and an `ESC ]0;…` retitles no window. Newlines are shown as `\n`
 * too, unless `keepNewlines` (a message body laid out over lines: a CR before a newline, or
 * at the end of a streamed chunk whose newline comes next, is then dropped).
 * Human output prints foreign text only through this (the CLI's `--json` goes through its `terminalJson`).
 *
 * @example visibleText("done\x1b[2J") // => "done\\x1b[2J"
 */
export function visibleText(text: string, options: { keepNewlines?: boolean } = {}): string {
  if (options.keepNewlines === true) return text.replace(CR_ENDING_LINE, "").replace(ACTING_BUT_NEWLINE, escapeOne);
  return text.replace(ACTING, escapeOne);
}

function escapeOne(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}
