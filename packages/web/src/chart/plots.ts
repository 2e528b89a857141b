// uPlot and its options, loaded only by a page that draws a chart (a dynamic import).
import uPlot, { type AlignedData, type Options } from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatCost } from "../format/format.ts";

export type PlotKind = "time" | "turn";
export type Plot = { setData(data: AlignedData): void; destroy(): void };

const WIDTH = 440;
const HEIGHT = 180;

export function makePlot(kind: PlotKind, data: AlignedData, into: HTMLElement): Plot {
  return new uPlot({ ...(kind === "time" ? timeOptions() : turnOptions()), width: WIDTH, height: HEIGHT }, data, into);
}

const tokenSeries = { label: "tokens", stroke: "#2856c7", width: 2, scale: "tokens", value: (_: uPlot, v: number | null) => (v === null ? "" : v.toLocaleString("en")) };
const costSeries = { label: "cost", stroke: "#16794a", width: 2, scale: "usd", value: (_: uPlot, v: number | null) => (v === null ? "" : formatCost(v)) };
const axes = (x: string): NonNullable<Options["axes"]> => [
  { label: x, stroke: "currentColor" },
  { scale: "tokens", stroke: "currentColor", size: 60 },
  { scale: "usd", side: 1, stroke: "currentColor", grid: { show: false }, size: 60, values: (_: uPlot, ticks: number[]) => ticks.map((tick) => formatCost(tick)) },
];

function timeOptions(): Omit<Options, "width" | "height"> {
  return { scales: { x: { time: false } }, series: [{ label: "s" }, tokenSeries, costSeries], axes: axes("s"), legend: { show: true } };
}

function turnOptions(): Omit<Options, "width" | "height"> {
  const bars = uPlot.paths.bars?.({ size: [0.4, 40], align: -1 });
  const barsRight = uPlot.paths.bars?.({ size: [0.4, 40], align: 1 });
  return {
    scales: { x: { time: false, range: (_u, min, max) => [min - 0.6, max + 0.6] } },
    series: [
      { label: "turn" },
      { ...tokenSeries, fill: "#2856c788", paths: bars, points: { show: false } },
      { ...costSeries, fill: "#16794a88", paths: barsRight, points: { show: false } },
    ],
    axes: [{ label: "turn", stroke: "currentColor", incrs: [1], values: (_: uPlot, ticks: number[]) => ticks.map((tick) => (Number.isInteger(tick) ? String(tick) : "")) }, ...axes("turn").slice(1)],
    legend: { show: true },
  };
}
