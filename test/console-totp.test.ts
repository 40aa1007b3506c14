/**
 * The second factor in the console, in a real Chromium as a user would use it
 * (docs/adr/0127-a-second-factor-for-password-logins.md): the security page enrols an authenticator
 * by its QR code and shows the recovery codes once; the login asks for the code, or a recovery code;
 * a user administrator resets a user's second factor from the user's page.
 */
import test from 'ava';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { consoleUrl, logIn, openConsole, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, createUser, login, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { codeOf, enrol, passwordStep } from './helpers/totp.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let account: { accountNo: string; crProcessId: number };
let user: TenantUser;
let secret = '';
let recoveryCodes: string[] = [];
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  account = await createAccount();
  user = await userWithRoles(account, ['user-info:read']);
  ({ browser, context, page } = await openConsole(watch, { logInAt: '/security', as: user }));
});

test.after.always(async () => {
  await browser?.close();
});

/** The password step on the login page, up to the second step's form. */
async function passwordOnly(on: Page, userCode: string, password: string): Promise<void> {
  await on.goto(consoleUrl('/login'));
  await on.getByLabel('User code').fill(userCode);
  await on.getByLabel('Password').fill(password);
  await on.getByRole('button', { name: 'Log in' }).click();
  await on.getByRole('heading', { name: 'Second factor' }).waitFor();
}

test.serial('the security page enrols an authenticator by its QR code and shows ten recovery codes once', async (t) => {
  await page.getByRole('heading', { name: 'Security' }).waitFor();
  await page.getByText('Off', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Set up an authenticator' }).click();
  const qr = page.getByRole('img', { name: 'QR code of the authenticator key' });
  await qr.waitFor();
  secret = (await page.locator('.totp-secret').textContent()) ?? '';
  t.regex(secret, /^[A-Z2-7]{32}$/);
  // the QR code encodes the same key: its otpauth URI names it, and the image is an SVG the page policy allows
  t.true((await qr.getAttribute('data-otpauth'))?.includes(`secret=${secret}`));
  const src = (await qr.getAttribute('src')) ?? '';
  t.regex(src, /^data:image\/svg\+xml;base64,/);
  t.true(
    await qr.evaluate(
      (img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0,
    ),
    'the QR code is drawn',
  );
  await page.getByLabel('Code from your authenticator').fill(await codeOf(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  recoveryCodes = await page.locator('.recovery-code-list code').allTextContents();
  t.is(recoveryCodes.length, 10);
  await page.getByRole('button', { name: 'I have stored them' }).click();
  await page.getByText('On — Recovery codes left: 10').waitFor();
  t.is(await page.getByRole('heading', { name: 'Your recovery codes' }).count(), 0, 'shown once');
});

test.serial('after logging out, the login asks for the code; the code from the authenticator opens the session', async (t) => {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Log in' }).waitFor();
  await passwordOnly(page, user.userCode, user.password);
  t.is(await page.getByRole('button', { name: 'Log out' }).count(), 0, 'no session before the code');
  await page.getByLabel('Code', { exact: true }).fill(await codeOf(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  t.pass();
});

test.serial('a recovery code opens the session once; used again, the page says so', async (t) => {
  const other = await context.browser()!.newContext();
  const second = watch(await other.newPage());
  try {
    await passwordOnly(second, user.userCode, user.password);
    await second.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await second.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await second.getByRole('button', { name: 'Verify' }).click();
    await second.getByRole('button', { name: 'Log out' }).waitFor();
    await second.getByRole('button', { name: 'Log out' }).click();
    await second.getByRole('button', { name: 'Log in' }).waitFor();
    await passwordOnly(second, user.userCode, user.password);
    await second.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await second.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await second.getByRole('button', { name: 'Verify' }).click();
    const alert = second.getByRole('alert');
    await alert.waitFor();
    t.regex((await alert.textContent()) ?? '', /SVC-SYS-1002/);
  } finally {
    await other.close();
  }
});

test.serial("a user administrator resets a user's second factor from the user's page", async (t) => {
  const administrator = await userWithRoles(account, ['user-info:read', 'user-info:write']);
  const tenant = { crProcessId: account.crProcessId };
  const target = await createUser([account.accountNo], tenant, tenant);
  // the target enrols through the API, as in totp-login.test.ts
  await enrol(await login(target.user.userCode, target.password));
  t.like((await passwordStep(target.user.userCode, target.password)).body, { secondFactor: 'totp' });
  const admin = await browser.newContext();
  const adminPage = watch(await admin.newPage());
  try {
    await adminPage.goto(consoleUrl(`/user-info/${target.user.id}`));
    await logIn(adminPage, administrator.userCode, administrator.password);
    await adminPage.getByRole('button', { name: 'Reset second factor' }).click();
    await adminPage.getByRole('button', { name: 'Reset', exact: true }).click();
    await adminPage.getByText('The second factor was reset.').waitFor();
    t.like((await passwordStep(target.user.userCode, target.password)).body, { success: true });
  } finally {
    await admin.close();
  }
});

test.serial('a user whose account requires a second factor enrols at the login by the QR code, then sees its recovery codes once', async (t) => {
  const strict = await createAccount({ secondFactorRequired: true });
  const tenant = { crProcessId: strict.crProcessId };
  const { user: newcomer, password } = await createUser([strict.accountNo], tenant, tenant);
  const own = await browser.newContext();
  const enrolling = watch(await own.newPage());
  try {
    await passwordOnly(enrolling, newcomer.userCode, password);
    await enrolling.getByText('Your account requires a second factor.', { exact: false }).waitFor();
    const qr = enrolling.getByRole('img', { name: 'QR code of the authenticator key' });
    const shown = (await enrolling.locator('.totp-secret').textContent()) ?? '';
    t.true((await qr.getAttribute('data-otpauth'))?.includes(`secret=${shown}`));
    t.is(await enrolling.getByRole('button', { name: 'Use a recovery code instead' }).count(), 0, 'no recovery code before the enrolment');
    await enrolling.getByLabel('Code', { exact: true }).fill(await codeOf(shown));
    await enrolling.getByRole('button', { name: 'Verify' }).click();
    await enrolling.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    t.is(await enrolling.locator('.recovery-code-list code').count(), 10);
    await enrolling.getByRole('button', { name: 'I have stored them' }).click();
    await enrolling.getByRole('button', { name: 'Log out' }).waitFor();
    t.like((await passwordStep(newcomer.userCode, password)).body, { secondFactor: 'totp' });
  } finally {
    await own.close();
  }
});

test.serial('no page met a script error or a refusal of the page policy', (t) => {
  t.deepEqual(scriptErrors, []);
});
