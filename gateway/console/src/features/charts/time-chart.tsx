import { useId } from 'react';
import { ChartTable } from './chart-table.tsx';
import './charts.css';

export interface TimePoint {
  /** The moment's label, in order (`2026-01`, `2026-11-27`). */
  label: string;
  value: number;
  display?: string;
}

const WIDTH = 560;
const HEIGHT = 200;
const LEFT = 64;
const BOTTOM = 26;
const TOP = 10;
const RIGHT = 12;

/**
 * A value over time as an area under a line, in plain SVG: points evenly spaced in their order,
 * the y axis from 0 to the largest value, a few labels on each axis. Named by <title> and <desc>;
 * every point's figure is in a visually hidden table for screen readers.
 *
 * @example
 * <TimeChart title="Sessions per day" description="Logins of the last 14 days" labelHeader="Day" valueHeader="Sessions" points={days} />
 */
export function TimeChart({
  title,
  description,
  labelHeader,
  valueHeader,
  points,
  formatValue = String,
}: {
  title: string;
  description: string;
  labelHeader: string;
  valueHeader: string;
  points: readonly TimePoint[];
  formatValue?: (value: number) => string;
}) {
  const id = useId();
  const max = Math.max(0, ...points.map((point) => point.value));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (index: number) => LEFT + (points.length <= 1 ? plotWidth / 2 : (index / (points.length - 1)) * plotWidth);
  const y = (value: number) => TOP + plotHeight - (max > 0 ? (value / max) * plotHeight : 0);
  const line = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(point.value).toFixed(1)}`).join(' ');
  const area = points.length > 0 ? `${line} L${x(points.length - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z` : '';
  // at most 7 labels on the time axis, the last always, none crowding it
  const step = Math.max(1, Math.ceil(points.length / 7));
  const labelled = points
    .map((point, index) => ({ point, index }))
    .filter(({ index }) => index === points.length - 1 || (index % step === 0 && points.length - 1 - index >= step));
  return (
    <figure className="chart">
      <figcaption className="chart-title">{title}</figcaption>
      <svg className="chart-svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{description}</desc>
        <g aria-hidden="true">
          <line className="chart-axis" x1={LEFT} y1={y(0)} x2={WIDTH - RIGHT} y2={y(0)} />
          <line className="chart-grid" x1={LEFT} y1={y(max)} x2={WIDTH - RIGHT} y2={y(max)} />
          <text className="chart-label" x={LEFT - 6} y={y(max)} textAnchor="end" dominantBaseline="middle">
            {formatValue(max)}
          </text>
          <text className="chart-label" x={LEFT - 6} y={y(0)} textAnchor="end" dominantBaseline="middle">
            {formatValue(0)}
          </text>
          {area && <path className="chart-area" d={area} />}
          {line && <path className="chart-line" d={line} />}
          {points.map((point, index) => (
            <circle key={point.label} className="chart-point" cx={x(index)} cy={y(point.value)} r={points.length > 40 ? 0 : 3} />
          ))}
          {labelled.map(({ point, index }) => (
            <text
              key={point.label}
              className="chart-label"
              x={x(index)}
              y={HEIGHT - 8}
              textAnchor={points.length > 1 && index === 0 ? 'start' : points.length > 1 && index === points.length - 1 ? 'end' : 'middle'}
            >
              {point.label}
            </text>
          ))}
        </g>
      </svg>
      <ChartTable
        caption={title}
        labelHeader={labelHeader}
        valueHeader={valueHeader}
        rows={points.map((point) => ({ label: point.label, value: point.display ?? formatValue(point.value) }))}
      />
    </figure>
  );
}
