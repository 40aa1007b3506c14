import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import { launchChromium } from './chromium.ts';
import { platform } from './platform.ts';

/** Where the console tests keep their screenshots: kept with the test output, never in git. */
export const CONSOLE_SHOTS = join(ROOT_DIR, 'test-output', 'console');

/** The page as it is now, whole, as test-output/console/`name`.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(CONSOLE_SHOTS, { recursive: true });
  await page.screenshot({ path: join(CONSOLE_SHOTS, `${name}.png`), fullPage: true });
}

/** Logs in through the console's login page, as a user would, and waits for the logged-in shell. */
export async function logIn(page: Page, userCode: string, password: string): Promise<void> {
  await page.getByLabel('User code').fill(userCode);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

/** The console's address for `path` (`/product`, `/branch/7`) on the test platform's gateway. */
export function consoleUrl(path: string): string {
  return `${platform.url}/console${path}`;
}

/**
 * Collects what pages' scripts could not do (an exception, a refused script or style), so a file
 * can close with a test that there was none: `watch(page)` notes one page's, `errors` holds them.
 */
export function scriptErrorWatch(): { errors: string[]; watch: (on: Page) => Page } {
  const errors: string[] = [];
  const watch = (on: Page): Page => {
    on.on('pageerror', (error) => errors.push(`${on.url()}: ${error.message}`));
    on.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) errors.push(`${on.url()}: ${message.text()}`);
    });
    return on;
  };
  return { errors, watch };
}

/** Read, write and delete on the three entities the CRUD pages' tests walk through. */
export const CRUD_ROLES = ['business-partner', 'branch', 'product'].flatMap((path) => [`${path}:read`, `${path}:write`, `${path}:delete`]);

/**
 * A test file's Chromium and its first page, in a context of its own (of `viewport` when given),
 * the page's script errors watched by `watch` (scriptErrorWatch); when `as` is given, logged in
 * from `logInAt` (the login page by default) as that user. The file closes the browser after.
 */
export async function openConsole(
  watch: (on: Page) => Page,
  options: { viewport?: { width: number; height: number }; logInAt?: string; as?: { userCode: string; password: string } } = {},
): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  const browser = await launchChromium();
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  const page = watch(await context.newPage());
  if (options.as) {
    await page.goto(consoleUrl(options.logInAt ?? '/login'));
    await logIn(page, options.as.userCode, options.as.password);
  }
  return { browser, context, page };
}
