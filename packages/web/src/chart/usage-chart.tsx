import { useEffect, useRef, useState } from "preact/hooks";
import type { AlignedData } from "uplot";
import type { UsageSeries } from "../timeline/timeline.ts";
import type { Plot, PlotKind } from "./plots.ts";

/** Tokens and cost over the run's time and per turn, from the usage the stream reported (uPlot, loaded on first use). */
export function UsageCharts({ usage }: { usage: UsageSeries }) {
  if (usage.points.length === 0) return null;
  const start = usage.points[0]!.at;
  const overTime: AlignedData = [usage.points.map((point) => (point.at - start) / 1000), usage.points.map((point) => point.tokens), usage.points.map((point) => point.costUsd)];
  const perTurn: AlignedData = [usage.turns.map((turn) => turn.turn), usage.turns.map((turn) => turn.tokens), usage.turns.map((turn) => turn.costUsd)];
  return (
    <section class="usage-charts" aria-labelledby="usage-title">
      <h2 id="usage-title">Tokens and cost</h2>
      <div class="charts">
        <Chart label="Over the run's time (seconds)" kind="time" data={overTime} />
        <Chart label="Per turn" kind="turn" data={perTurn} />
      </div>
    </section>
  );
}

function Chart({ label, kind, data }: { label: string; kind: PlotKind; data: AlignedData }) {
  const box = useRef<HTMLDivElement>(null);
  const [plot, setPlot] = useState<Plot>();
  const [error, setError] = useState<string>();
  const latest = useRef(data);
  latest.current = data;
  useEffect(() => {
    let made: Plot | undefined;
    let live = true;
    import("./plots.ts").then(
      ({ makePlot }) => {
        if (!live || box.current === null) return;
        made = makePlot(kind, latest.current, box.current);
        setPlot(made);
      },
      (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      live = false;
      made?.destroy();
    };
  }, [kind]);
  useEffect(() => {
    plot?.setData(data);
  }, [plot, data]);
  return (
    <figure class="chart" data-chart={kind}>
      <div ref={box} class="plot" />
      <figcaption class="dim">{error === undefined ? label : `${label}: the chart could not load (${error})`}</figcaption>
    </figure>
  );
}
