import { useEffect, useState } from "preact/hooks";
import type { Api, DiffFile, RunDiff } from "../api/client.ts";
import { diffLines } from "./diff-lines.ts";

/** Waits this long after the change moved before fetching it, so a burst costs one fetch. */
const FETCH_DELAY_MS = 200;
/** Files with more changed lines than this start closed. */
const OPEN_LINES = 400;

/**
 * What the run changed (`GET /api/runs/{ref}/diff`, `baton diff`'s data): the files with their
 * added and removed lines, each file's hunks drawn as a diff. Fetched again whenever `version`
 * changes (a commit, a changed file, the run's end).
 */
export function ChangesView({ api, runRef, version }: { api: Api; runRef: string; version: string }) {
  const [diff, setDiff] = useState<RunDiff>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    // A replay moves `version` many times in a moment: only its last value is fetched.
    const timer = setTimeout(() => {
      api.getDiff(runRef).then(
        (next) => {
          if (!live) return;
          setDiff(next);
          setError(undefined);
        },
        (failure: unknown) => {
          if (live) setError(failure instanceof Error ? failure.message : String(failure));
        },
      );
    }, FETCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, runRef, version]);
  return (
    <section class="changes" aria-labelledby="changes-title">
      <h2 id="changes-title">
        What changed
        {diff !== undefined && (
          <span class="changes-total">
            {diff.files.length} {diff.files.length === 1 ? "file" : "files"} <span class="added">+{diff.added}</span> <span class="removed">−{diff.removed}</span>
          </span>
        )}
      </h2>
      {error !== undefined && diff === undefined && <p class="dim">{error}</p>}
      {diff !== undefined && diff.files.length === 0 && <p class="dim">No changes{diff.source === "workspace" ? " yet" : ""}.</p>}
      {diff !== undefined && diff.files.length > 0 && (
        <>
          <p class="dim changes-source">{diff.source === "commit" ? `Commit ${diff.commit?.slice(0, 10) ?? ""} against its base ${diff.base_sha?.slice(0, 10) ?? ""}` : "Working changes, not committed yet"}</p>
          <ul class="diff-files">
            {diff.files.map((file) => (
              <FileDiff key={`${file.old_path ?? ""}>${file.path}`} file={file} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function FileDiff({ file }: { file: DiffFile }) {
  return (
    <li class="diff-file" data-path={file.path}>
      <details open={file.added + file.removed <= OPEN_LINES}>
        <summary>
          <span class="diff-path">{file.old_path !== undefined ? `${file.old_path} → ${file.path}` : file.path}</span>
          <span class={`diff-change change-${file.change}`}>{file.change}</span>
          <span class="added">+{file.added}</span> <span class="removed">−{file.removed}</span>
        </summary>
        {file.binary ? (
          <p class="dim">Binary file</p>
        ) : (
          <table class="diff">
            <tbody>
              {diffLines(file.patch).map((line, index) => (
                <tr key={index} class={`diff-${line.kind}`}>
                  <td class="ln">{line.old ?? ""}</td>
                  <td class="ln">{line.new ?? ""}</td>
                  <td class="code">
                    <span class="sign" aria-hidden="true">
                      {line.kind === "add" ? "+" : line.kind === "del" ? "-" : " "}
                    </span>
                    {line.text}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {file.truncated && <p class="dim">Cut here: the rest is in <code>baton diff</code>.</p>}
      </details>
    </li>
  );
}
