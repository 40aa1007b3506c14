/**
 * Where the console's login leads, in a real Chromium
 * (docs/adr/0088-the-console-shell-and-generic-pages.md): "the login returns there (only to a console path)". Refine's login reads `?to=`
 * itself, so each hostile value is given in the address as a user following a link would, and the
 * login must end on the console's home page, on the console's origin; a real console path in `to`
 * is followed, which shows `to` is read at all.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './helpers/chromium.ts';
import { consoleUrl, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { platform } from './helpers/platform.ts';

let browser: Browser;
let user: TenantUser;
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  user = await userWithRoles(await createAccount(), ['product:read']);
  browser = await launchChromium();
});

test.after.always(async () => {
  await browser?.close();
});

/**
 * A fresh browser context (no session) at `/console/login?to=<to, as given>`, then the login: the
 * page once it has left the login page, wherever it went.
 */
async function logInWith(to: string): Promise<Page> {
  const context = await browser.newContext();
  const page = watch(await context.newPage());
  await page.goto(consoleUrl(`/login?to=${to}`));
  await page.getByLabel('User code').fill(user.userCode);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.href !== consoleUrl(`/login?to=${to}`) && url.pathname !== '/console/login');
  return page;
}

const HOSTILE = [
  'http:evil.invalid',
  'https://evil.invalid/',
  '//evil.invalid',
  '/\\evil.invalid',
  '%2F%2Fevil.invalid',
  '%2F%5Cevil.invalid',
  'javascript:alert(document.domain)',
  '/login?to=//evil.invalid',
];

// one at a time: each is a whole login in a browser of its own context
for (const to of HOSTILE) {
  test.serial(`a login from /console/login?to=${to} ends on the console's home page, on the console's origin`, async (t) => {
    const page = await logInWith(to);
    // the logged-in home page itself, not an error page at that address: `/` under the basename
    // /console leads to the dashboard, the landing page; read once it is there, not in between
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const url = new URL(page.url());
    t.is(url.origin, new URL(platform.url).origin, page.url());
    t.is(url.pathname, '/console/dashboard', page.url());
    await page.context().close();
  });
}

test.serial('a login from /console/login?to=/product opens the product list: a console path is followed', async (t) => {
  const page = await logInWith(encodeURIComponent('/product'));
  t.is(new URL(page.url()).origin, new URL(platform.url).origin);
  t.is(new URL(page.url()).pathname, '/console/product', page.url());
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  await page.context().close();
});

test.after('no page of the file met a script error or a refused script', (t) => {
  t.deepEqual(scriptErrors, []);
});
