/**
 * What a PromQL expression selects, read with Prometheus' own grammar (@prometheus-io/lezer-promql,
 * the parser of Prometheus' web UI): each vector selector's metric name and the label names it
 * matches on. For checking deploy/components/monitoring's rules and the prometheus-adapter rule
 * against the series the processes serve. Function names, aggregation and matching keywords and the
 * labels of `by (…)`/`on (…)` are no selectors and are not returned.
 */
import { parser } from '@prometheus-io/lezer-promql';
import type { SyntaxNode } from '@lezer/common';

/** One vector selector: `name{label="…",…}`. */
export interface Selector {
  metric: string;
  /** The label names its matchers name (not `__name__`). */
  labels: string[];
  /** Its equality matchers (`label="value"`), by label. */
  equals: Record<string, string>;
}

/** The selectors of `expr`; throws naming the first syntax error. */
export function selectorsOf(expr: string): Selector[] {
  const tree = parser.parse(expr);
  const selectors: Selector[] = [];
  let error: number | undefined;
  tree.iterate({
    enter(node) {
      if (node.type.isError && error === undefined) error = node.from;
      if (node.name !== 'VectorSelector') return;
      const selector = node.node;
      const identifier = selector.getChild('Identifier');
      const matchers = selector.getChild('LabelMatchers');
      const labels = matchers ? labelNames(matchers, expr) : [];
      const metric = identifier ? expr.slice(identifier.from, identifier.to) : nameMatcher(matchers, expr);
      if (!metric) throw new Error(`a selector without a metric name in ${JSON.stringify(expr)}`);
      const text = matchers ? expr.slice(matchers.from, matchers.to) : '';
      const equals = Object.fromEntries([...text.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"([^"\\]*)"/g)].map((match) => [match[1]!, match[2]!]));
      selectors.push({ metric, labels: labels.filter((label) => label !== '__name__'), equals });
    },
  });
  if (error !== undefined)
    throw new Error(`not PromQL at ${error}: ${JSON.stringify(expr.slice(Math.max(0, error - 20), error + 20))} in ${JSON.stringify(expr)}`);
  return selectors;
}

function labelNames(matchers: SyntaxNode, expr: string): string[] {
  const names: string[] = [];
  const cursor = matchers.cursor();
  do {
    if (cursor.name === 'LabelName' && cursor.node.parent?.name === 'UnquotedLabelMatcher') names.push(expr.slice(cursor.from, cursor.to));
  } while (cursor.next() && cursor.from < matchers.to);
  return names;
}

/** `{__name__="x"}` names its metric in a matcher. */
function nameMatcher(matchers: SyntaxNode | null, expr: string): string | undefined {
  const text = matchers ? expr.slice(matchers.from, matchers.to) : '';
  return /__name__\s*=\s*"([^"]+)"/.exec(text)?.[1];
}
