import { useId } from 'react';
import { ChartTable } from './chart-table.tsx';
import type { Tone } from './tone.ts';
import { toneClass } from './tone.ts';
import './charts.css';

const WIDTH = 480;
const HEIGHT = 34;

/**
 * How much of a limit is used (storage against its quota), as a filled track in plain SVG: the
 * accent colour below 80 %, warning to 95 %, danger beyond. Without a limit the track stays empty
 * and `summary` says so. Named by <title> and <desc>; the figures are in a visually hidden table.
 *
 * @example
 * <Meter title="Storage" summary="1.2 MB of 10 MB (12 %)" used={1_200_000} limit={10_000_000} rows={[...]} />
 */
export function Meter({
  title,
  summary,
  used,
  limit,
  labelHeader,
  valueHeader,
  rows,
}: {
  title: string;
  /** One sentence of the figures, shown under the meter and used as its description. */
  summary: string;
  used: number;
  /** The limit; undefined when there is none. */
  limit: number | undefined;
  labelHeader: string;
  valueHeader: string;
  rows: readonly { label: string; value: string }[];
}) {
  const id = useId();
  const share = limit === undefined || limit <= 0 ? (limit === 0 && used > 0 ? 1 : 0) : Math.min(1, used / limit);
  const tone: Tone = share >= 0.95 ? 'danger' : share >= 0.8 ? 'warn' : 'accent';
  return (
    <figure className="chart">
      <svg className="chart-svg chart-meter" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{summary}</desc>
        <g aria-hidden="true">
          <rect className="chart-track" x={0} y={4} width={WIDTH} height={HEIGHT - 8} rx={6} />
          <rect className={toneClass(tone)} x={0} y={4} width={share * WIDTH} height={HEIGHT - 8} rx={6} />
        </g>
      </svg>
      <figcaption className="chart-caption">{summary}</figcaption>
      <ChartTable caption={title} labelHeader={labelHeader} valueHeader={valueHeader} rows={rows} />
    </figure>
  );
}
