/**
 * console-load's record-page measure: a partner's record page with its related lists painted.
 *
 * From the partners list, a click on a partner's link until its page shows its own fields and every
 * related list the manifest names for a partner (branches, contacts, contracts, accruals, files) holds its
 * rows, not busy, and a frame is painted: the path a clerk takes. Each visit opens another partner,
 * so no answer comes from the console's cache. Baseline, in the same page: the same requests (the
 * record's GET and one list per related list, as the page sends them) by fetch(), all at once.
 *
 * Every partner visited is given one record of each related resource before the rounds (through
 * the API, as a clerk would make them), so a related list that shows no row, or a manifest naming
 * a related resource this file cannot make, fails the scenario instead of timing an empty list.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import type { ConsoleManifest, ConsoleRelated } from '@platform/contracts/console/manifest.ts';
import { BenchError, expectStatus, http, type BenchPlatform } from './lib.ts';

const PARTNER = 'business-partner';
/** Rows of a related list, as the record page asks them (gateway/console/src/resources/related-lists.tsx). */
const RELATED_SIZE = 5;

/** What a visit needs: the partner's console path and the requests its page sends. */
export interface PartnerVisit {
  href: string;
  id: number;
  code: string;
}

type Make = (platform: BenchPlatform, token: string, tenant: number, partnerId: number, n: number) => Promise<void>;

/** One record of each resource that names a partner, made as the API's clients make them. */
const MAKERS: Readonly<Record<string, Make>> = {
  branch: async (platform, token, tenant, partnerId, n) => {
    await create(platform, token, 'branch', { crProcessId: tenant, businessPartnerId: partnerId, branchCode: `B${n}`, branchName: `Branch ${n}` });
  },
  contact: async (platform, token, tenant, partnerId, n) => {
    await create(platform, token, 'contact', { crProcessId: tenant, businessPartnerId: partnerId, firstName: 'Ada', lastName: `Contact ${n}` });
  },
  contract: async (platform, token, tenant, partnerId, n) => {
    await createContract(platform, token, tenant, partnerId, n);
  },
  // listed on the partner's page through its contract (docs/adr/0141-a-list-filters-through-a-reference.md): one of its own
  accrual: async (platform, token, tenant, partnerId, n) => {
    const contractId = await createContract(platform, token, tenant, partnerId, n);
    await create(platform, token, 'accrual', {
      crProcessId: tenant,
      contractId,
      periodStart: '2026-01-01',
      periodEnd: '2026-01-31',
      amount: '100.00',
      currencyCode: 'TRY',
    });
  },
  'dms-file': async (platform, token, tenant, partnerId, n) => {
    const form = new FormData();
    form.set('crProcessId', String(tenant));
    form.set('entityType', PARTNER);
    form.set('entityId', String(partnerId));
    form.set('file', new Blob([`bench file ${n} of partner ${partnerId}`]), `partner-${partnerId}-${n}.txt`);
    const res = await fetch(`${platform.url}/api/dms-file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (res.status !== 200) throw new BenchError(`upload for partner ${partnerId}: HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  },
};

/** POST /api/{resource}; the id of the record made. */
async function create(platform: BenchPlatform, token: string, resource: string, body: Record<string, unknown>): Promise<number> {
  const answer = await expectStatus(
    `create ${resource}`,
    http('POST', `${platform.url}/api/${resource}`, { headers: { authorization: `Bearer ${token}` }, body }),
  );
  const id = (answer.json as { id?: unknown }).id;
  if (typeof id !== 'number') throw new BenchError(`create ${resource} answered no id`);
  return id;
}

/** A contract of the partner; its id. */
function createContract(platform: BenchPlatform, token: string, tenant: number, partnerId: number, n: number): Promise<number> {
  return create(platform, token, 'contract', {
    crProcessId: tenant,
    businessPartnerId: partnerId,
    contractNo: `BENCH-${partnerId}-${n}`,
    startDate: '2026-01-01',
    currencyCode: 'TRY',
    billingPeriod: 'MONTHLY',
  });
}

/** The related lists a partner's page shows, as the gateway's manifest names them. */
export async function partnerRelated(platform: BenchPlatform, token: string): Promise<readonly ConsoleRelated[]> {
  const answer = await expectStatus(
    'the console manifest',
    http('GET', `${platform.url}/console/resources.json`, { headers: { cookie: `SVC_SESSION=${token}` } }),
  );
  const manifest = answer.json as ConsoleManifest;
  const partner = manifest.resources.find((resource) => resource.path === PARTNER);
  if (!partner || partner.related.length === 0) throw new BenchError('the manifest names no related list of a business partner');
  for (const related of partner.related)
    if (!MAKERS[related.resource]) throw new BenchError(`a partner's page lists ${related.resource}, which this scenario cannot make a record of`);
  return partner.related;
}

/** Gives each partner one record of every related resource. */
export async function seedRelated(
  platform: BenchPlatform,
  token: string,
  tenant: number,
  visits: readonly PartnerVisit[],
  related: readonly ConsoleRelated[],
): Promise<void> {
  let n = 0;
  for (const visit of visits) for (const each of related) await MAKERS[each.resource]!(platform, token, tenant, visit.id, ++n);
}

/** In the page: the first `count` partner links of the loaded list, with the code each shows. */
export async function partnersOnList(context: BrowserContext, listUrl: string, listReady: string, count: number): Promise<PartnerVisit[]> {
  const page = await context.newPage();
  await page.goto(listUrl);
  await page.evaluate(listReady);
  const links = await page.$$eval('main table tbody a[href]', (anchors) =>
    anchors.map((a) => ({ href: a.getAttribute('href') ?? '', code: a.textContent ?? '' })),
  );
  await page.close();
  const visits = links
    .map((link) => ({ ...link, id: Number(link.href.split('/').pop()) }))
    .filter((link) => link.href.includes(`/${PARTNER}/`) && Number.isInteger(link.id));
  if (visits.length < count) throw new BenchError(`the partners list shows ${visits.length} partner links; ${count} are needed`);
  return visits.slice(0, count);
}

/**
 * In the page: clicks the list's link to a partner and answers the ms until the partner's page is
 * painted with its code and every one of `lists` related lists holds record rows (a row with a
 * link: the "Loading" and "No records" rows have none) and is not busy.
 */
const VISIT = `(async ({ href, code, lists }) => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const link = [...document.querySelectorAll('main table tbody a[href]')].find((a) => a.getAttribute('href') === href);
  if (!link) throw new Error('no link ' + href + ' on the list');
  const started = performance.now();
  link.click();
  for (;;) {
    await frame();
    const fields = document.querySelector('main dl.record-fields');
    const sections = [...document.querySelectorAll('main section.related-list')];
    const painted =
      location.pathname.endsWith(href.replace(/^.*\\/console/, '')) &&
      fields !== null && fields.textContent.includes(code) &&
      sections.length === lists &&
      sections.every((section) => section.querySelector('tbody')?.getAttribute('aria-busy') !== 'true' && section.querySelector('tbody tr td a[href]') !== null);
    if (painted) break;
    if (performance.now() - started > 30000) throw new Error('the record page of ' + href + ' never painted its related lists');
  }
  await frame();
  return performance.now() - started;
})`;

/** In the page: the requests the record page sends, by fetch, all at once; the ms until every answer is read. */
const BASELINE = `(async ({ id, tenant, related, size }) => {
  const started = performance.now();
  const json = (res) => { if (res.status !== 200) throw new Error(res.url + ' answered ' + res.status); return res.json(); };
  const lists = related.map((each) => {
    const filter = { crProcessId: tenant, [each.field]: id };
    if (each.type) filter[each.type.field] = each.type.value;
    return fetch('/api/' + each.resource + '/list', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ page: 0, size, filter }) }).then(json);
  });
  const answers = await Promise.all([fetch('/api/business-partner/' + id, { credentials: 'same-origin' }).then(json), ...lists]);
  if (answers.slice(1).some((page) => !page.content || page.content.length === 0)) throw new Error('a related list answered no records');
  return performance.now() - started;
})`;

/** One round: a fresh context, the list loaded, each partner visited once (and the list again between). */
export async function visitRecordPages(
  browser: Browser,
  cookie: { name: string; value: string; url: string },
  listUrl: string,
  listReady: string,
  visits: readonly PartnerVisit[],
  related: readonly ConsoleRelated[],
  tenant: number,
): Promise<{ visits: number[]; baseline: number[] }> {
  const context = await browser.newContext();
  try {
    await context.addCookies([cookie]);
    const page = await context.newPage();
    await page.goto(listUrl);
    await page.evaluate(listReady);
    const times: number[] = [];
    const baseline: number[] = [];
    for (const visit of visits) {
      times.push((await page.evaluate(`${VISIT}(${JSON.stringify({ href: visit.href, code: visit.code, lists: related.length })})`)) as number);
      baseline.push((await page.evaluate(`${BASELINE}(${JSON.stringify({ id: visit.id, tenant, related, size: RELATED_SIZE })})`)) as number);
      await page.goBack();
      await page.evaluate(listReady);
    }
    return { visits: times, baseline };
  } catch (error) {
    throw error instanceof BenchError ? error : new BenchError(`the record pages: ${(error as Error).message}`);
  } finally {
    await context.close();
  }
}
