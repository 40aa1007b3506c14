/**
 * Lookups of core (docs/interface.md#records): country (`code` ISO 3166 alpha-2, unique), city (`countryId`),
 * currency (`code` ISO 4217, unique; `fractionDigits` default 2). "Deleting an account, user-info or
 * country with references is likewise refused."
 */
import test from 'ava';
import { adminSession, create, freshTenant } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

const admin = async () => (await adminSession()).token;

test('a country code is two capital letters (ISO 3166-1 alpha-2) and unique within the tenant, not across tenants', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  for (const code of ['tr', 'TUR', 'T', 'T1', 'ÇÖ']) {
    const res = await api('POST', '/api/country', { token, body: { crProcessId: tenant, code, name: 'X' } });
    t.is(res.status, 400, `${code}: ${res.text}`);
    t.is(res.body.error_code, 'SVC-SYS-2001');
    t.regex(res.body.message, /code/);
  }
  await create('country', { crProcessId: tenant, code: 'TR', name: 'Türkiye' });
  const duplicate = await api('POST', '/api/country', { token, body: { crProcessId: tenant, code: 'TR', name: 'Again' } });
  t.is(duplicate.status, 409, duplicate.text);
  t.is(duplicate.body.error_code, 'SVC-SYS-4005');
  t.is((await api('POST', '/api/country', { token, body: { crProcessId: freshTenant(), code: 'TR', name: 'Türkiye' } })).status, 200);
});

test('a city names a country of its own tenant (400 otherwise), and a country with cities cannot be deleted (409 SVC-SYS-4003)', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const [country, elsewhere] = await Promise.all([
    create('country', { crProcessId: tenant, code: 'DE', name: 'Deutschland' }),
    create('country', { crProcessId: freshTenant(), code: 'DE', name: 'Deutschland' }),
  ]);
  const foreign = await api('POST', '/api/city', { token, body: { crProcessId: tenant, countryId: elsewhere.id, name: 'Berlin' } });
  t.is(foreign.status, 400, foreign.text);
  t.is(foreign.body.error_code, 'SVC-SYS-2001');
  t.regex(foreign.body.message, /countryId/);
  const city = await create('city', { crProcessId: tenant, countryId: country.id, name: 'Berlin', code: 'B' });
  const removal = await api('DELETE', `/api/country/${country.id}`, { token });
  t.is(removal.status, 409, removal.text);
  t.is(removal.body.error_code, 'SVC-SYS-4003');
  t.is((await api('DELETE', `/api/city/${city.id}`, { token })).status, 204);
  t.is((await api('DELETE', `/api/country/${country.id}`, { token })).status, 204);
});

test('a currency code is three capital letters (ISO 4217); fractionDigits defaults to 2 and lies within 0..4', async (t) => {
  const token = await admin();
  const tenant = freshTenant();
  const created = await create('currency', { crProcessId: tenant, code: 'EUR', name: 'Euro', symbol: '€' });
  t.is(created.fractionDigits, 2);
  for (const body of [
    { code: 'eur' },
    { code: 'EURO' },
    { code: 'USD', fractionDigits: 5 },
    { code: 'USD', fractionDigits: -1 },
    { code: 'USD', fractionDigits: 2.5 },
  ]) {
    const res = await api('POST', '/api/currency', { token, body: { crProcessId: tenant, name: 'X', ...body } });
    t.is(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    t.is(res.body.error_code, 'SVC-SYS-2001');
  }
  const duplicate = await api('POST', '/api/currency', { token, body: { crProcessId: tenant, code: 'EUR', name: 'Again' } });
  t.is(duplicate.status, 409, duplicate.text);
});
