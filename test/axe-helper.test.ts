/**
 * The accessibility helper the console tests trust (helpers/axe.ts): an empty answer from
 * `seriousViolations` is taken as "a clean page", so the helper itself must be seen to find a known
 * serious violation, and to find none once the same page is repaired. The pages are written into
 * the browser directly: what is judged here is the helper, not the console.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { launchChromium } from './helpers/chromium.ts';

let browser: Browser;

test.before(async () => {
  browser = await launchChromium();
});

test.after.always(async () => {
  await browser?.close();
});

/** One page: a landmark, a heading, a form whose control is named or not, an image with or without alt. */
const page = (broken: boolean) => `<!doctype html>
<html lang="en"><head><title>Axe control</title></head>
<body><main><h1>Axe control</h1>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" ${broken ? '' : 'alt="A dot"'}>
<form><input type="text" ${broken ? '' : 'aria-label="Name"'}><button type="submit">${broken ? '' : 'Save'}</button></form>
</main></body></html>`;

test('seriousViolations names the serious violations of a page that has them, and none once they are repaired', async (t) => {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await tab.setContent(page(true));
    const found = await seriousViolations(tab);
    // axe's rules: an image without alt (image-alt), an unnamed input (label), an empty button (button-name): all critical
    t.deepEqual(
      found.map((line) => line.split(':')[0]),
      ['button-name', 'image-alt', 'label'],
      found.join('\n'),
    );
    await tab.setContent(page(false));
    t.deepEqual(await seriousViolations(tab), []);
  } finally {
    await context.close();
  }
});

test('seriousViolations refuses to answer for a scan that checked nothing', async (t) => {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await tab.setContent('<!doctype html><html lang="en"><head><title>Empty</title></head><body></body></html>');
    // an empty body still passes document-level rules (the language, the title): the guard does not
    // fire on a real page, so it is shown firing on axe told to run no rule at all
    await tab.evaluate(await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
    await tab.evaluate(`axe.configure({ rules: axe.getRules().map((rule) => ({ id: rule.ruleId, enabled: false })) })`);
    await t.throwsAsync(seriousViolations(tab), { message: /axe checked nothing/ });
  } finally {
    await context.close();
  }
});
