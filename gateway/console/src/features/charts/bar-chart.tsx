import { useId } from 'react';
import { ChartTable } from './chart-table.tsx';
import { toneClass, type Tone } from './tone.ts';
import './charts.css';

export interface Bar {
  label: string;
  value: number;
  /** How the value is written beside its bar and read out (default: the number). */
  display?: string;
  tone?: Tone;
}

const WIDTH = 480;
const ROW = 30;
const LABEL = 130;
const VALUE = 110;

/**
 * A horizontal bar chart in plain SVG: one labelled bar per entry, scaled to the largest, its value
 * written beside it. The SVG is an image named by its <title> and <desc>; the same figures are in a
 * visually hidden table for screen readers.
 *
 * @example
 * <BarChart title="Accruals by state" description="Count of accruals in each state" valueHeader="Count" bars={[{ label: 'Pending', value: 3 }]} />
 */
export function BarChart({
  title,
  description,
  labelHeader,
  valueHeader,
  bars,
}: {
  title: string;
  description: string;
  labelHeader: string;
  valueHeader: string;
  bars: readonly Bar[];
}) {
  const id = useId();
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  const span = WIDTH - LABEL - VALUE;
  const height = Math.max(1, bars.length) * ROW + 4;
  return (
    <figure className="chart">
      <figcaption className="chart-title">{title}</figcaption>
      <svg className="chart-svg" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{description}</desc>
        {bars.map((bar, index) => {
          const y = index * ROW + 4;
          const width = max > 0 ? Math.max(bar.value > 0 ? 2 : 0, (bar.value / max) * span) : 0;
          return (
            <g key={bar.label} aria-hidden="true">
              <text className="chart-label" x={LABEL - 8} y={y + ROW / 2} textAnchor="end" dominantBaseline="middle">
                {bar.label}
              </text>
              <rect className={`chart-track`} x={LABEL} y={y + 4} width={span} height={ROW - 10} rx={3} />
              <rect className={toneClass(bar.tone)} x={LABEL} y={y + 4} width={width} height={ROW - 10} rx={3} />
              <text className="chart-value" x={LABEL + span + 8} y={y + ROW / 2} dominantBaseline="middle">
                {bar.display ?? String(bar.value)}
              </text>
            </g>
          );
        })}
      </svg>
      <ChartTable
        caption={title}
        labelHeader={labelHeader}
        valueHeader={valueHeader}
        rows={bars.map((bar) => ({ label: bar.label, value: bar.display ?? String(bar.value) }))}
      />
    </figure>
  );
}
