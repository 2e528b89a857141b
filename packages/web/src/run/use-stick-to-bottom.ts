import { useEffect, useLayoutEffect, useRef } from "preact/hooks";

/** How close to the end of the page counts as "at the end" (a line or two). */
const NEAR_END_PX = 96;

/**
 * Keeps a live page scrolled to its end while the reader is there, as a terminal does; a
 * reader who scrolled up to read is left where they are.
 */
export function useStickToBottom(change: unknown): void {
  const atEnd = useRef(true);
  useEffect(() => {
    const onScroll = () => {
      const root = document.documentElement;
      atEnd.current = window.innerHeight + window.scrollY >= root.scrollHeight - NEAR_END_PX;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  useLayoutEffect(() => {
    if (atEnd.current) window.scrollTo({ top: document.documentElement.scrollHeight });
  }, [change]);
}
