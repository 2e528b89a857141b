import { useEffect, useState } from "preact/hooks";

/** The page a hash names: `#/runs/12` is run 12; anything else is the run list. */
export type Route = { page: "runs" } | { page: "run"; ref: string };

export function parseHash(hash: string): Route {
  const match = /^#\/runs\/([^/?#]+)\/?$/.exec(hash);
  if (match === null) return { page: "runs" };
  try {
    return { page: "run", ref: decodeURIComponent(match[1]!) };
  } catch {
    return { page: "runs" };
  }
}

export function runHash(ref: string | number): string {
  return `#/runs/${encodeURIComponent(String(ref))}`;
}

export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(window.location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
