/** One sample of Prometheus' text format: `name{label="value",…} 12.5`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a text-format scrape (comments skipped). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL))
      labels[key ?? ''] = (value ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/** GET {base}/metrics, parsed; throws unless 200. */
export async function scrape(base: string): Promise<Metrics> {
  const res = await fetch(`${base}/metrics`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${base}/metrics: ${res.status} ${text.slice(0, 200)}`);
  return new Metrics(text);
}

export class Metrics {
  readonly text: string;
  readonly samples: Sample[];
  constructor(text: string) {
    this.text = text;
    this.samples = parseMetrics(text);
  }

  /** The samples named `name` whose labels include `labels`. */
  matching(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  }

  /** The sum of the matching samples (0 when there are none). */
  sum(name: string, labels: Record<string, string> = {}): number {
    return this.matching(name, labels).reduce((total, s) => total + s.value, 0);
  }

  has(name: string, labels: Record<string, string> = {}): boolean {
    return this.matching(name, labels).length > 0;
  }
}
