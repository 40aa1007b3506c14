/**
 * Stored bytes never act on the platform's origin, judged by a real Chromium (docs/decisions.md,
 * "Files": "Stored bytes never act on the origin"). A tenant user with dms-file:write uploads pages
 * whose script asks `/api/auth/me` with the cookie of whoever opens them; a super user logged in in
 * the browser (the SVC_SESSION cookie on the gateway's origin, docs/interface.md#identity) opens the signed
 * `inline=true` URL (docs/interface.md#files: "inline=true gives Content-Disposition: inline") and the share link's
 * public URL. No script may run there: not the page's, not an SVG's, not one in XHTML or XML.
 * Types safe to show still preview: a PDF in Chromium's viewer, a PNG as an image.
 */
import test from 'ava';
import type { Browser, BrowserContext, Request } from 'playwright-core';
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

/** Opens `path` in a page of the logged-in super user; what the page's script did there. */
async function open(path: string): Promise<{ title: string; read: string[] }> {
  const page = await opener.newPage();
  const asked: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/auth/me') asked.push(request);
  });
  // an attachment becomes a download and the navigation is aborted: that is one of the outcomes looked at
  await page.goto(`${platform.url}${path}`).catch(() => undefined);
  // a fetch the page's script began is answered before the network is idle
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  const read = await Promise.all(
    asked.map(async (request) => `${(await request.response())?.status()} ${await (await request.response())?.text().catch(() => '')}`),
  );
  const title = await page.title().catch(() => '');
  await page.close();
  return { title, read };
}

for (const file of ACTIVE) {
  test(`${file.what} uploaded by a tenant runs no script for a super user who opens its signed inline URL or its share link`, async (t) => {
    const urls = await urlsOf(file);
    for (const [how, path] of [
      ['signed inline URL', urls.inline],
      ['share link', urls.shared],
    ] as const) {
      const seen = await open(path);
      t.deepEqual(seen.read, [], `${how} (stored as ${urls.mimeType}): the page's script read /api/auth/me as the super user`);
      t.false(/^(ran|me:)/.test(seen.title), `${how} (stored as ${urls.mimeType}): the page's script ran (title ${JSON.stringify(seen.title.slice(0, 120))})`);
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
