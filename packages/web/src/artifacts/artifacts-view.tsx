import { useEffect, useState } from "preact/hooks";
import type { Api, Artifact } from "../api/client.ts";

/** Pictures are shown in the page, from Baton's API; every other file is a link to it. */
const INLINE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The files the run captured (`artifact.captured`), fetched again when `count` changes. */
export function ArtifactsView({ api, runRef, count }: { api: Api; runRef: string; count: number }) {
  const [artifacts, setArtifacts] = useState<Artifact[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    api.listArtifacts(runRef).then(
      (next) => {
        if (live) setArtifacts(next);
      },
      (failure: unknown) => {
        if (live) setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => {
      live = false;
    };
  }, [api, runRef, count]);
  if (artifacts.length === 0 && error === undefined) return null;
  const images = artifacts.filter((artifact) => INLINE.has(artifact.media_type));
  const others = artifacts.filter((artifact) => !INLINE.has(artifact.media_type));
  return (
    <section class="artifacts" aria-labelledby="artifacts-title">
      <h2 id="artifacts-title">Artifacts</h2>
      {error !== undefined && <p role="alert">Could not list the artifacts: {error}</p>}
      {images.length > 0 && (
        <ul class="artifact-images">
          {images.map((artifact) => (
            <li key={artifact.sha256}>
              <figure>
                <img src={api.artifactUrl(artifact.url)} alt={artifact.path} loading="lazy" />
                <figcaption>{artifact.path}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <ul class="artifact-files">
          {others.map((artifact) => (
            <li key={artifact.sha256}>
              <a href={api.artifactUrl(artifact.url)} download={artifact.path.split("/").at(-1)}>
                {artifact.path}
              </a>{" "}
              <span class="dim">
                {artifact.media_type} · {artifact.bytes.toLocaleString("en")} bytes
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
