/**
 * "References (...Id) must name a record of the same tenant, else 400 SVC-SYS-2001" (docs/interface.md#records), on update as on create, and kept by the database itself: a row written past the API that
 * names another tenant's record, or a user that does not exist, is refused by its foreign key.
 */
import test from 'ava';
import pg from 'pg';
import { adminSession, create, createPartner, freshTenant, unique } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { assertInvalid } from './helpers/error-body.ts';

test("an update that points groupId or roleTypeId at another tenant's record is 400 SVC-SYS-2001 naming the field and changes nothing", async (t) => {
  const { token } = await adminSession();
  const [a, b] = [freshTenant(), freshTenant()];
  const [groupOfA, roleTypeOfA, groupOfB, roleTypeOfB] = await Promise.all([
    create('group', { crProcessId: a, groupName: unique('A group ') }),
    create('role-type', { crProcessId: a, roleCode: unique('a:'), roleName: 'A role' }),
    create('group', { crProcessId: b, groupName: unique('B group ') }),
    create('role-type', { crProcessId: b, roleCode: unique('b:'), roleName: 'B role' }),
  ]);
  const grant = await create('group-role', { crProcessId: a, groupId: groupOfA.id, roleTypeId: roleTypeOfA.id });
  for (const [field, value] of [
    ['groupId', groupOfB.id],
    ['roleTypeId', roleTypeOfB.id],
  ] as const) {
    const res = await api('PUT', `/api/group-role/${grant.id}`, { token, body: { version: 0, [field]: value } });
    assertInvalid(t, res, field);
  }
  const after = await api('GET', `/api/group-role/${grant.id}`, { token });
  t.like(after.body, { version: 0, groupId: groupOfA.id, roleTypeId: roleTypeOfA.id });
});

test("the database itself refuses a row that names another tenant's record or an unknown user (foreign keys, not only the API)", async (t) => {
  const [a, b] = [freshTenant(), freshTenant()];
  const [partnerOfB, groupOfB] = await Promise.all([createPartner(b), create('group', { crProcessId: b, groupName: unique('B group ') })]);
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  const audit = `now(), now(), 'test', 'test'`;
  try {
    for (const [constraint, sql, params] of [
      [
        'branch_business_partner_id_foreign',
        `insert into bpm.branch (cr_process_id, business_partner_id, branch_name, branch_code, created_at, updated_at, created_by, updated_by) values ($1, $2, 'X', 'X', ${audit})`,
        [a, partnerOfB.id],
      ],
      [
        'group_member_group_id_foreign',
        `insert into core.group_member (cr_process_id, group_id, user_code, created_at, updated_at, created_by, updated_by) values ($1, $2, $3, ${audit})`,
        [a, groupOfB.id, platform.adminUser],
      ],
      [
        'group_member_user_code_foreign',
        `insert into core.group_member (cr_process_id, group_id, user_code, created_at, updated_at, created_by, updated_by) values ($1, $2, $3, ${audit})`,
        [b, groupOfB.id, unique('nobody-')],
      ],
    ] as const) {
      const error = await t.throwsAsync(db.query(sql, [...params]));
      t.like(error as object, { code: '23503', constraint }, constraint);
    }
  } finally {
    await db.end();
  }
});

/** A country of `tenant` with one city; codes are unique per tenant, so each call takes a fresh tenant. */
async function place(tenant: number): Promise<{ country: any; city: any }> {
  const country = await create('country', { crProcessId: tenant, code: 'TR', name: 'Türkiye' });
  const city = await create('city', { crProcessId: tenant, countryId: country.id, name: 'İstanbul', code: '34' });
  return { country, city };
}

// "countryId and cityId are core's records, in core's schema of the same database: the keys cross
// into it" (docs/adr/0065-keys-across-schemas.md): another tenant's country or city, one that does not
// exist, and a city of another country are refused like any other reference.
test("a business partner naming another tenant's or no country or city is 400 SVC-SYS-2001 naming the field, on create and update, and nothing is written", async (t) => {
  const { token } = await adminSession();
  const [a, b] = [freshTenant(), freshTenant()];
  const [own, other, second] = await Promise.all([place(a), place(b), create('country', { crProcessId: a, code: 'DE', name: 'Deutschland' })]);
  const missing = 9_007_199_254_740_000;
  const refused: [string, Record<string, unknown>][] = [
    ['countryId', { countryId: other.country.id }],
    ['countryId', { countryId: missing }],
    ['cityId', { countryId: own.country.id, cityId: other.city.id }],
    ['cityId', { countryId: own.country.id, cityId: missing }],
    // a city of the tenant, but of another of its countries
    ['cityId', { countryId: second.id, cityId: own.city.id }],
    // a city without its country would be checked by no key (MATCH SIMPLE): refused by a check
    ['cityId', { cityId: own.city.id }],
  ];
  const code = unique('P-');
  for (const [field, places] of refused) {
    const res = await api('POST', '/api/business-partner', {
      token,
      body: { crProcessId: a, partnerCode: code, partnerName: 'Placed', partnerType: 'CUSTOMER', ...places },
    });
    assertInvalid(t, res, field);
  }
  const listed = await api('POST', '/api/business-partner/list', { token, body: { filter: { crProcessId: a, partnerCode: code } } });
  t.is(listed.body.totalElements, 0, 'no refused create wrote a partner');

  const partner = await createPartner(a, { countryId: own.country.id, cityId: own.city.id });
  t.like(partner, { countryId: own.country.id, cityId: own.city.id });
  const refusedOnUpdate: [string, Record<string, unknown>][] = [
    ...refused.slice(0, -1),
    // the partner's city stays, its country goes: a city without its country
    ['cityId', { countryId: null }],
    // the partner's city stays, its country changes: no longer the city's country
    ['cityId', { countryId: second.id }],
  ];
  for (const [field, places] of refusedOnUpdate) {
    const res = await api('PUT', `/api/business-partner/${partner.id}`, { token, body: { version: 0, ...places } });
    assertInvalid(t, res, field);
  }
  const after = await api('GET', `/api/business-partner/${partner.id}`, { token });
  t.like(after.body, { version: 0, countryId: own.country.id, cityId: own.city.id });
  const cleared = await api('PUT', `/api/business-partner/${partner.id}`, { token, body: { version: 0, cityId: null, countryId: null } });
  t.is(cleared.status, 200, cleared.text);
});

test('deleting a country or city a business partner names is 409 SVC-SYS-4003 from core-svc, not a 500', async (t) => {
  const { token } = await adminSession();
  const tenant = freshTenant();
  const { country, city } = await place(tenant);
  const partner = await createPartner(tenant, { countryId: country.id, cityId: city.id });
  const cityRemoval = await api('DELETE', `/api/city/${city.id}`, { token });
  t.is(cityRemoval.status, 409, cityRemoval.text);
  t.is(cityRemoval.body.error_code, 'SVC-SYS-4003');
  const moved = await api('PUT', `/api/business-partner/${partner.id}`, { token, body: { version: 0, cityId: null } });
  t.is(moved.status, 200, moved.text);
  const countryRemoval = await api('DELETE', `/api/country/${country.id}`, { token });
  t.is(countryRemoval.status, 409, countryRemoval.text);
  t.is(countryRemoval.body.error_code, 'SVC-SYS-4003');
  t.is((await api('DELETE', `/api/city/${city.id}`, { token })).status, 204);
  t.is((await api('DELETE', `/api/country/${country.id}`, { token })).status, 409, 'the partner still names the country');
});
