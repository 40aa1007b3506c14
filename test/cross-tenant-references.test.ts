/**
 * "References (...Id) must name a record of the same tenant, else 400 SVC-SYS-2001" (decisions.md
 * §3), on update as on create, and kept by the database itself: a row written past the API that
 * names another tenant's record, or a user that does not exist, is refused by its foreign key.
 */
import test from 'ava';
import pg from 'pg';
import { adminSession, create, createPartner, freshTenant, unique } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { assertInvalid } from './helpers/error-body.ts';

test('an update that points groupId or roleTypeId at another tenant\'s record is 400 SVC-SYS-2001 naming the field and changes nothing', async (t) => {
  const { token } = await adminSession();
  const [a, b] = [freshTenant(), freshTenant()];
  const [groupOfA, roleTypeOfA, groupOfB, roleTypeOfB] = await Promise.all([
    create('group', { crProcessId: a, groupName: unique('A group ') }),
    create('role-type', { crProcessId: a, roleCode: unique('a:'), roleName: 'A role' }),
    create('group', { crProcessId: b, groupName: unique('B group ') }),
    create('role-type', { crProcessId: b, roleCode: unique('b:'), roleName: 'B role' }),
  ]);
  const grant = await create('group-role', { crProcessId: a, groupId: groupOfA.id, roleTypeId: roleTypeOfA.id });
  for (const [field, value] of [['groupId', groupOfB.id], ['roleTypeId', roleTypeOfB.id]] as const) {
    const res = await api('PUT', `/api/group-role/${grant.id}`, { token, body: { version: 0, [field]: value } });
    assertInvalid(t, res, field);
  }
  const after = await api('GET', `/api/group-role/${grant.id}`, { token });
  t.like(after.body, { version: 0, groupId: groupOfA.id, roleTypeId: roleTypeOfA.id });
});

test('the database itself refuses a row that names another tenant\'s record or an unknown user (foreign keys, not only the API)', async (t) => {
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
