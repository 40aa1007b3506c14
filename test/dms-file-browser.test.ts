/**
 * Stored bytes never act on the platform's origin, judged by a real Chromium
 * (docs/adr/0073-stored-bytes-never-act-on-the-origin.md). A tenant user with dms-file:write uploads pages
 * whose script asks `/api/auth/me` with the cookie of whoever opens them; a super user logged in in
 * the browser (the SVC_SESSION cookie on the gateway's origin, docs/interface.md#identity) opens the signed
 * `inline=true` URL (docs/interface.md#files: "inline=true gives Content-Disposition: inline") and the share link's
 * public URL. No script may run there: not the page's, not an SVG's, not one in XHTML or XML.
 * Types safe to show still preview: a PDF in Chromium's viewer, a PNG as an image.
 */
import test from 'ava';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { consoleCsp } from '../gateway/src/console/serve.ts';
import { launchChromium } from './helpers/chromium.ts';
import { create, createAccount, userWithRoles, type TenantUser } from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';

/** What the uploaded pages run: mark the title, then read /api/auth/me as the opener and show it. */
const PROBE = `document.title = 'ran'; fetch('/api/auth/me', { credentials: 'include' }).then((r) => r.text()).then((t) => { document.title = 'me:' + t; });`;

const ACTIVE = [
  {
    what: 'an HTML page',
    fileName: 'invoice.html',
    type: 'text/html',
    content: `<!doctype html><html><head><title>idle</title></head><body><script>${PROBE}</script></body></html>`,
  },
  {
    what: 'an SVG with a script',
    fileName: 'logo.svg',
    type: 'image/svg+xml',
    content: `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>idle</title><script>${PROBE}</script></svg>`,
  },
  {
    what: 'an XHTML page',
    fileName: 'page.xhtml',
    type: 'application/xhtml+xml',
    content: `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>idle</title></head><body><script>//<![CDATA[\n${PROBE}\n//]]></script></body></html>`,
  },
  {
    // file-type recognises the XML declaration: stored as application/xml, which Chromium renders with its XHTML script
    what: 'an XML document holding XHTML script',
    fileName: 'data.xml',
    type: 'text/xml',
    content: `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>idle</title></head><body><script>//<![CDATA[\n${PROBE}\n//]]></script></body></html>`,
  },
] as const;

const PDF = `%PDF-1.4
1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj
trailer<</Root 1 0 R>>
%%EOF
`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let browser: Browser;
let opener: BrowserContext;
let uploader: TenantUser;
let crProcessId: number;

test.before(async () => {
  const account = await createAccount();
  crProcessId = account.crProcessId;
  uploader = await userWithRoles(account, ['dms-file:write', 'dms-file:read', 'dms-share-link:write']);
  browser = await launchChromium();
  opener = await browser.newContext({ acceptDownloads: true });
  await logIn();
});

test.after.always(async () => {
  await browser?.close();
});

/** The super user logs in from a page on the gateway's origin: the gateway's SVC_SESSION cookie is in the opener's jar from then on. */
async function logIn(): Promise<void> {
  const page = await opener.newPage();
  await page.goto(`${platform.url}/api/health`);
  const me = await page.evaluate(
    async ({ apiKey, userCode, password }) => {
      const login = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ userCode, password, languageCode: 'en' }),
      });
      if (login.status !== 200) return { status: login.status, body: await login.text() };
      const res = await fetch('/api/auth/me');
      return { status: res.status, body: await res.text() };
    },
    { apiKey: platform.apiKey, userCode: platform.adminUser, password: platform.adminPassword },
  );
  if (me.status !== 200 || JSON.parse(me.body).userCode !== platform.adminUser) throw new Error(`the browser's session does not work: ${me.status} ${me.body}`);
  await page.close();
}

/** The signed inline URL and the share link's public URL of an upload by the tenant user. */
async function urlsOf(file: { fileName: string; type: string; content: string | Uint8Array }): Promise<{ mimeType: string; inline: string; shared: string }> {
  const uploaded = await upload({ token: uploader.token, crProcessId, content: file.content, fileName: file.fileName, type: file.type });
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`);
  const signed = await api('GET', `/api/dms-file/${uploaded.body.fileId}/download-url?inline=true`, { token: uploader.token });
  if (signed.status !== 200) throw new Error(`download-url: ${signed.status} ${signed.text}`);
  const link = await create('dms-share-link', { crProcessId, fileId: uploaded.body.fileId }, uploader.token);
  return { mimeType: uploaded.body.mimeType, inline: signed.body.url, shared: link.url };
}

/**
 * What Chromium did with `path` opened in `page` of the logged-in super user: saved it (an
 * attachment: the navigation is aborted for a download, and nothing is rendered) or rendered it,
 * and then what the page's script did there. Any other failure of the navigation fails the test:
 * an error answer or a broken connection is neither outcome.
 */
type Opened = { kind: 'download'; suggested: string } | { kind: 'page'; status: number | undefined; title: string; read: string[] };

async function open(page: Page, path: string): Promise<Opened> {
  const asked: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/auth/me') asked.push(request);
  });
  const download = page.waitForEvent('download', { timeout: 15_000 });
  // not awaited when the page renders: its timeout must not surface as an unhandled rejection
  download.catch(() => undefined);
  const navigation = await page.goto(`${platform.url}${path}`).then(
    (response) => ({ response, error: undefined }),
    (error: Error) => ({ response: null, error }),
  );
  if (navigation.error) {
    // an attachment aborts the navigation (net::ERR_ABORTED) and becomes a download; only that is an outcome
    const saved = await download.catch(() => {
      throw new Error(`opening ${path} failed, and no download began: ${navigation.error?.message}`);
    });
    return { kind: 'download', suggested: saved.suggestedFilename() };
  }
  // a fetch the page's script began is answered before the network is idle
  await page.waitForLoadState('networkidle');
  const read = await Promise.all(asked.map(async (request) => `${(await request.response())?.status()} ${await (await request.response())?.text()}`));
  return { kind: 'page', status: navigation.response?.status(), title: await page.title(), read };
}

/** A route matcher for exactly the gateway's `path` (with its query): Playwright's string patterns are globs. */
function sameUrl(path: string): (url: URL) => boolean {
  const wanted = new URL(`${platform.url}${path}`).href;
  return (url) => url.href === wanted;
}

/**
 * Answers `path` for this page with the stored bytes as dms-svc sent them but under the stored type
 * alone (no Content-Disposition, no sandbox): served where a page may run its script, so that a
 * probe that runs is seen to run.
 */
async function servePlainly(page: Page, path: string, mimeType: string): Promise<void> {
  await page.route(sameUrl(path), async (route) => {
    const real = await route.fetch();
    if (real.status() !== 200) throw new Error(`the real answer of ${path}: ${real.status()}`);
    await route.fulfill({ status: 200, headers: { 'content-type': mimeType }, body: await real.body() });
  });
}

/** The page's title once `done` holds for it (looked at every 25 ms, for at most 30 s). */
async function titleOnce(page: Page, done: (title: string) => boolean): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const title = await page.title();
    if (done(title) || Date.now() > deadline) return title;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

for (const file of ACTIVE) {
  test(`${file.what} uploaded by a tenant runs no script for a super user who opens its signed inline URL or its share link: Chromium saves it, and the same bytes served plainly there would run`, async (t) => {
    const urls = await urlsOf(file);
    for (const [how, path] of [
      ['signed inline URL', urls.inline],
      ['share link', urls.shared],
    ] as const) {
      const page = await opener.newPage();
      const seen = await open(page, path);
      await page.close();
      t.deepEqual(seen, { kind: 'download', suggested: file.fileName }, `${how} (stored as ${urls.mimeType}): saved, nothing rendered`);

      // the control: the same bytes at the same URL of the origin, served as a page may be, run and read /api/auth/me
      const control = await opener.newPage();
      await servePlainly(control, path, urls.mimeType);
      const ran = await open(control, path);
      // the probe writes /api/auth/me's answer into the title
      const title = await titleOnce(control, (text) => text.startsWith('me:'));
      await control.close();
      t.like(ran, { kind: 'page', status: 200 }, `${how}: the control renders the page`);
      t.is(
        title.startsWith('me:') ? JSON.parse(title.slice(3)).userCode : title,
        platform.adminUser,
        `${how}: the control's script read /api/auth/me as the super user`,
      );
    }
  });
}

test("types safe to show still preview inline under the sandbox: a PDF in Chromium's viewer, a PNG as an image", async (t) => {
  const pdf = await urlsOf({ fileName: 'contract.pdf', type: 'application/pdf', content: PDF });
  t.is(pdf.mimeType, 'application/pdf');
  const pdfPage = await opener.newPage();
  let downloaded = false;
  pdfPage.on('download', () => (downloaded = true));
  await pdfPage.goto(`${platform.url}${pdf.inline}`);
  const viewer = await pdfPage
    .waitForEvent('frameattached', { predicate: (frame) => frame.url().startsWith('chrome-extension://'), timeout: 10_000 })
    .catch(() => undefined);
  t.truthy(viewer ?? pdfPage.frames().find((frame) => frame.url().startsWith('chrome-extension://')), 'the PDF viewer opened the file');
  t.false(downloaded, 'an inline PDF is shown, not downloaded');
  await pdfPage.close();

  const png = await urlsOf({ fileName: 'pixel.png', type: 'image/png', content: PNG });
  const pngPage = await opener.newPage();
  await pngPage.goto(`${platform.url}${png.inline}`);
  // a string: the test's TypeScript has no DOM types
  t.is(await pngPage.evaluate("document.querySelector('img')?.naturalWidth"), 1, 'Chromium shows the image');
  await pngPage.close();
});

/**
 * What a page of the origin made its `<script src>` or `<link rel=stylesheet>` of `path` do: the
 * console's own Content-Security-Policy over a page an HTML injection could have written, whose
 * script marks the document and whose stylesheet colours it. The page is answered by the test (the
 * injection); the subresource comes from the gateway.
 */
async function embed(page: Page, path: string, tag: 'script' | 'stylesheet'): Promise<{ status: number | undefined; ran: boolean; refusals: string[] }> {
  const pageUrl = `${platform.url}/console/injected-page`;
  const element = tag === 'script' ? `<script src="${path}"></script>` : `<link rel="stylesheet" href="${path}">`;
  await page.route(sameUrl('/console/injected-page'), (route) =>
    route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': consoleCsp(false) },
      body: `<!doctype html><html><head><title>injected</title>${element}</head><body></body></html>`,
    }),
  );
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().startsWith('Refused to')) refusals.push(message.text());
  });
  // a stylesheet of a type it refuses Chromium aborts as the head arrives: no response event then
  let status: number | undefined;
  page.on('response', (response) => {
    if (response.url() === `${platform.url}${path}`) status = response.status();
  });
  // the load event comes after the parser-blocking script ran or was refused and the stylesheet was applied or refused
  await page.goto(pageUrl);
  const ran =
    tag === 'script'
      ? (await page.evaluate('document.documentElement.dataset.ran ?? null')) === 'yes'
      : (await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')) === 'rgb(1, 2, 3)';
  // Chromium's console message of a refusal may reach the test a moment after the load event
  for (const deadline = Date.now() + 5000; !ran && refusals.length === 0 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 25));
  return { status, ran, refusals };
}

for (const [what, tag, fileName, type, content] of [
  ['a script', 'script', 'helper.js', 'text/javascript', `document.documentElement.dataset.ran = 'yes';`],
  ['a stylesheet', 'stylesheet', 'theme.css', 'text/css', 'html { background-color: rgb(1, 2, 3); }'],
] as const) {
  test(`${what} a tenant shares is not run by a page of the origin under the console's script-src 'self', while the same bytes as ${type} would be`, async (t) => {
    const urls = await urlsOf({ fileName, type, content });
    t.is(urls.mimeType, type, 'the record keeps the type the file was uploaded as');
    for (const [how, path] of [
      ['share link', urls.shared],
      ['signed URL', urls.inline],
    ] as const) {
      const page = await opener.newPage();
      const seen = await embed(page, path, tag);
      await page.close();
      t.false(seen.ran, `${how}: Chromium ${tag === 'script' ? 'ran the script' : 'applied the stylesheet'}`);
      // the refusal names the type the gateway answered with: the file was served, not an error body
      t.true(
        seen.refusals.some((text) => text.includes(path) && text.includes("MIME type ('application/octet-stream')")),
        `${how}: Chromium refused it for its type: ${JSON.stringify(seen.refusals)}`,
      );

      // the control: the same URL and bytes with every header dms-svc sent but the type, which is the stored one
      const control = await opener.newPage();
      await control.route(sameUrl(path), async (route) => {
        const real = await route.fetch();
        await route.fulfill({ response: real, headers: { ...real.headers(), 'content-type': type } });
      });
      const ran = await embed(control, path, tag);
      await control.close();
      t.deepEqual(ran, { status: 200, ran: true, refusals: [] }, `${how}: served as ${type}, the page ${tag === 'script' ? 'runs it' : 'applies it'}`);
    }
  });
}
