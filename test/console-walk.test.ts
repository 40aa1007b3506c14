/**
 * A clerk's walk through the console, in a real Chromium, by mouse and by keyboard, at a desktop's
 * 1440×900 and a phone's 390×844, in English and in Turkish: log in, open the partners from the
 * menu, create a partner, add a branch and a contact from the partner's page, find the partner by
 * the global search and open the contact from the partner's related list.
 *
 * On every page of the walk axe finds no serious or critical violation, and at 390×844 the
 * document is no wider than the window (the page never scrolls sideways). The keyboard walks reach
 * every control by Tab alone and act on it by Enter, the arrow keys and typing: a control that Tab
 * never reaches fails the walk. Every page is kept as a screenshot in test-output/console/walk/.
 *
 * The words are the console's own: entity and field names from the contracts' label catalogue
 * (libs/contracts), so the Turkish walk is the same walk with the catalogue's Turkish.
 */
import test, { type ExecutionContext } from 'ava';
import type { Browser, Locator, Page } from 'playwright-core';
import { businessPartner } from '@platform/contracts/bpm/business-partner.ts';
import { branch } from '@platform/contracts/bpm/branch.ts';
import { contact } from '@platform/contracts/bpm/contact.ts';
import { seriousViolations } from './helpers/axe.ts';
import { launchChromium } from './helpers/chromium.ts';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CONSOLE_SHOTS, consoleUrl, screenshot, scriptErrorWatch } from './helpers/console.ts';
import { createAccount, unique, userWithRoles, type TenantUser } from './helpers/factories.ts';

type Language = 'en' | 'tr';
type Hand = 'mouse' | 'keyboard';

/** The console's own words the walk acts on (gateway/console/src/app/messages.ts, resources/messages.ts). */
const WORDS = {
  en: {
    userCode: 'User code',
    password: 'Password',
    logIn: 'Log in',
    logOut: 'Log out',
    menu: 'Menu',
    mainNav: 'Main',
    create: 'Create',
    save: 'Save',
    newOf: 'New',
    search: 'Search',
  },
  tr: {
    userCode: 'Kullanıcı kodu',
    password: 'Parola',
    logIn: 'Giriş yap',
    logOut: 'Çıkış yap',
    menu: 'Menü',
    mainNav: 'Ana menü',
    create: 'Oluştur',
    save: 'Kaydet',
    newOf: 'Yeni',
    search: 'Ara',
  },
} as const;

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

interface Walk {
  hand: Hand;
  size: keyof typeof SIZES;
  language: Language;
}

const WALKS: readonly Walk[] = [
  { hand: 'mouse', size: 'desktop', language: 'en' },
  { hand: 'keyboard', size: 'desktop', language: 'en' },
  { hand: 'mouse', size: 'phone', language: 'en' },
  { hand: 'keyboard', size: 'phone', language: 'tr' },
  { hand: 'mouse', size: 'desktop', language: 'tr' },
];

const ROLES = ['business-partner', 'branch', 'contact'].flatMap((path) => [`${path}:read`, `${path}:write`]);

let browser: Browser;
let clerk: TenantUser;
const { errors: scriptErrors, watch } = scriptErrorWatch();

test.before(async () => {
  const account = await createAccount();
  clerk = await userWithRoles(account, ROLES);
  browser = await launchChromium();
  await mkdir(join(CONSOLE_SHOTS, 'walk'), { recursive: true });
});

test.after.always(async () => {
  await browser?.close();
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A form's field by its label, which a required field follows with its mark (" *"). */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${escape(label)}( \\*)?$`));

/** How a clerk acts: by mouse (pointing, then typing), or by keyboard alone (Tab to it, then keys). */
class Hands {
  private readonly page: Page;
  private readonly hand: Hand;

  constructor(page: Page, hand: Hand) {
    this.page = page;
    this.hand = hand;
  }

  /** Tab until `target` has the focus; a control Tab never reaches fails the walk. */
  private async tabTo(target: Locator): Promise<void> {
    await target.waitFor();
    for (let presses = 0; presses < 200; presses++) {
      if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
      await this.page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${target.toString()}`);
  }

  async press(target: Locator): Promise<void> {
    if (this.hand === 'mouse') return target.click();
    await this.tabTo(target);
    await this.page.keyboard.press('Enter');
  }

  async type(target: Locator, text: string): Promise<void> {
    if (this.hand === 'mouse') await target.click();
    else await this.tabTo(target);
    await this.page.keyboard.type(text);
  }

  /** Chooses `value` of a select: by the mouse as a list, by the keyboard with the arrow keys. */
  async choose(target: Locator, value: string, label: string): Promise<void> {
    if (this.hand === 'mouse') {
      await target.selectOption({ label });
      return;
    }
    await this.tabTo(target);
    for (let presses = 0; presses < 10 && (await target.inputValue()) !== value; presses++) await this.page.keyboard.press('ArrowDown');
    if ((await target.inputValue()) !== value) throw new Error(`the arrow keys never chose ${value}`);
  }
}

/**
 * One page of the walk looked at: no serious axe violation, at a phone's width no sideways scroll
 * of the document, and its screenshot kept.
 */
async function look(t: ExecutionContext, page: Page, walk: Walk, step: string): Promise<void> {
  const name = `${walk.language}-${walk.size}-${walk.hand}`;
  if (walk.size === 'phone') {
    const [documentWidth, windowWidth] = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as [number, number];
    t.true(documentWidth <= windowWidth, `${name}, ${step}: the document is ${documentWidth} px wide in a ${windowWidth} px window`);
  }
  t.deepEqual(await seriousViolations(page), [], `${name}, ${step}: axe`);
  await screenshot(page, `walk/${name}-${step}`);
}

for (const walk of WALKS) {
  test.serial(
    `a clerk by ${walk.hand} at ${SIZES[walk.size].width}×${SIZES[walk.size].height} in ${walk.language}: partner, branch and contact, search, related list`,
    async (t) => {
      const words = WORDS[walk.language];
      const labels = {
        partner: businessPartner.labels[walk.language],
        branch: branch.labels[walk.language],
        contact: contact.labels[walk.language],
      };
      const context = await browser.newContext({ viewport: SIZES[walk.size], locale: walk.language === 'tr' ? 'tr-TR' : 'en-GB' });
      const page = watch(await context.newPage());
      const hands = new Hands(page, walk.hand);
      const main = page.locator('main');
      const partnerCode = unique('W-');
      const partnerName = unique(walk.language === 'tr' ? 'Işık Yapı ' : 'Walk Works ');
      const firstName = unique('Ayşe');
      try {
        // log in
        await page.goto(consoleUrl('/login'));
        await page.getByLabel(words.userCode).waitFor();
        await look(t, page, walk, '01-login');
        await hands.type(page.getByLabel(words.userCode), clerk.userCode);
        await hands.type(page.getByLabel(words.password), clerk.password);
        await hands.press(page.getByRole('button', { name: words.logIn }));
        await page.getByRole('button', { name: words.logOut }).waitFor();
        await look(t, page, walk, '02-home');

        // the partners, from the menu (behind its button on a phone)
        if (walk.size === 'phone') await hands.press(page.getByRole('button', { name: words.menu }));
        await hands.press(page.getByRole('navigation', { name: words.mainNav }).getByRole('link', { name: labels.partner.other, exact: true }));
        await page.getByRole('heading', { level: 1, name: labels.partner.other }).waitFor();
        await look(t, page, walk, '03-partners');

        // a new partner
        await hands.press(main.getByRole('link', { name: new RegExp(`^${escape(words.create)}`) }));
        await page.getByRole('button', { name: words.save }).waitFor();
        await hands.type(field(page, labels.partner.fields.partnerCode), partnerCode);
        await hands.type(field(page, labels.partner.fields.partnerName), partnerName);
        await hands.choose(field(page, labels.partner.fields.partnerType), 'CUSTOMER', labels.partner.values.partnerType.CUSTOMER);
        await look(t, page, walk, '04-partner-new');
        await hands.press(page.getByRole('button', { name: words.save }));
        await page.waitForURL(/\/console\/business-partner\/\d+$/);
        const partnerPath = new URL(page.url()).pathname;
        await page.getByRole('status').filter({ hasText: partnerName }).first().waitFor();
        await main.getByText(partnerCode, { exact: true }).first().waitFor();
        await look(t, page, walk, '05-partner');

        // a branch from the partner's page: the form comes with the partner
        const branches = page.getByRole('region', { name: labels.branch.other, exact: true });
        await hands.press(branches.getByRole('link', { name: `${words.newOf} ${labels.branch.one}` }));
        await page.getByRole('button', { name: words.save }).waitFor();
        await hands.type(field(page, labels.branch.fields.branchCode), 'HQ');
        await hands.type(field(page, labels.branch.fields.branchName), `${partnerName} HQ`);
        await look(t, page, walk, '06-branch-new');
        await hands.press(page.getByRole('button', { name: words.save }));
        await page.waitForURL(/\/console\/branch\/\d+$/);
        // the branch names its partner by a link to the partner's page
        await hands.press(main.getByRole('link', { name: partnerName, exact: true }).first());
        await page.waitForURL((url) => url.pathname === partnerPath);
        await branches.getByRole('link', { name: `${partnerName} HQ`, exact: true }).waitFor();
        await look(t, page, walk, '07-partner-with-branch');

        // a contact from the partner's page
        const contacts = page.getByRole('region', { name: labels.contact.other, exact: true });
        await hands.press(contacts.getByRole('link', { name: `${words.newOf} ${labels.contact.one}` }));
        await page.getByRole('button', { name: words.save }).waitFor();
        await hands.type(field(page, labels.contact.fields.firstName), firstName);
        await hands.type(field(page, labels.contact.fields.lastName), 'Yılmaz');
        await hands.press(page.getByRole('button', { name: words.save }));
        await page.waitForURL(/\/console\/contact\/\d+$/);
        const contactPath = new URL(page.url()).pathname;
        await look(t, page, walk, '08-contact');

        // the partner found by the global search: the shortcut and the arrow keys, or the box and a click
        const box = page.getByRole('combobox', { name: words.search });
        if (walk.hand === 'keyboard') {
          await page.keyboard.press('Control+k');
          t.true(await box.evaluate((element) => element === element.ownerDocument.activeElement), 'Ctrl+K puts the focus in the search box');
          await page.keyboard.type(partnerCode);
        } else {
          await box.click();
          await page.keyboard.type(partnerCode);
        }
        const hit = page.getByRole('option', { name: new RegExp(escape(partnerCode)) });
        await hit.waitFor();
        await look(t, page, walk, '09-search');
        if (walk.hand === 'keyboard') {
          await page.keyboard.press('ArrowDown');
          t.is(await hit.getAttribute('aria-selected'), 'true', 'the arrow key chooses the partner');
          await page.keyboard.press('Enter');
        } else await hit.click();
        await page.waitForURL((url) => url.pathname === partnerPath);

        // the contact, from the partner's related list
        await hands.press(contacts.getByRole('link', { name: firstName, exact: true }));
        await page.waitForURL((url) => url.pathname === contactPath);
        await main.getByText('Yılmaz', { exact: true }).first().waitFor();
        await look(t, page, walk, '10-contact-from-partner');
      } finally {
        await context.close();
      }
    },
  );
}

test.after('no page of the walks met a script error or a refused script', (t) => {
  t.deepEqual(scriptErrors, []);
});
