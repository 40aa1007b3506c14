import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

let axeSource: Promise<string> | undefined;

/**
 * axe-core's serious and critical violations on the page as it is now (rule id and the first
 * offending element of each). The engine is put in by the debugging protocol, which the page's CSP
 * does not govern, so the page keeps its own policy while it is scanned. A scan that checked
 * nothing throws: an empty answer must mean a clean page.
 */
export async function seriousViolations(on: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await on.evaluate('typeof window.axe !== "undefined"'))) await on.evaluate(await axeSource);
  return (await on.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) => {
    if (result.passes.length === 0) throw new Error('axe checked nothing');
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id + ': ' + violation.nodes[0].target.join(' ') + ' ' + violation.help);
  })`)) as string[];
}
