import { useStdout } from "ink";
import { useEffect, useState } from "react";

export type Size = { columns: number; rows: number };

/** The terminal's size, kept up to date as it is resized. */
export function useSize(): Size {
  const { stdout } = useStdout();
  const [size, setSize] = useState<Size>({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
    stdout.on("resize", onResize);
    return () => void stdout.off("resize", onResize);
  }, [stdout]);
  return size;
}

/** A run status's colour on the screen. */
export function colorOf(status: string): "green" | "red" | "yellow" | "cyan" | undefined {
  if (status === "succeeded") return "green";
  if (status === "failed") return "red";
  if (status === "running") return "cyan";
  if (status === "paused" || status === "stopped" || status === "cancelled") return "yellow";
  return undefined;
}
