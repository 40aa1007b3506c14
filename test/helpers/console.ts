import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT_DIR } from '@platform/libs/config/config.ts';

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
