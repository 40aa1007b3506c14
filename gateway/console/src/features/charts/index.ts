/**
 * The console's charts: small SVG components without a chart library (the first route's budget and
 * the strict CSP), each an image named by <title>/<desc> with its figures in a visually hidden
 * table. The dashboard uses them; the generic list may show StatsBar over an entity's table.
 */
export { BarChart, type Bar } from './bar-chart.tsx';
export { TimeChart, type TimePoint } from './time-chart.tsx';
export { Meter } from './meter.tsx';
export { StatsBar, StatsBarView } from './stats-bar.tsx';
export { ChartTable, type ChartRow } from './chart-table.tsx';
export type { Tone } from './tone.ts';
