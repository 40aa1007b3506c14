/** The colours a chart's mark may take, as classes of charts.css over the theme's variables (no inline style: the CSP). */
export type Tone = 'accent' | 'ok' | 'warn' | 'danger' | 'muted';

export function toneClass(tone: Tone | undefined): string {
  return `chart-tone-${tone ?? 'accent'}`;
}
