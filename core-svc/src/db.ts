import { fileURLToPath } from 'node:url';
import { BigIntType, EntitySchema } from '@mikro-orm/postgresql';
import { entitySchemas, type Row } from '@platform/service-kit/db/entity-schema.ts';
import { tenantCountSchemas } from '@platform/service-kit/db/tenant-count.ts';
import { outboxEntity } from '@platform/service-kit/events/outbox-entity.ts';
import { importEntities } from '@platform/service-kit/import/run-entity.ts';
import { idempotencyEntity } from '@platform/service-kit/idempotency/idempotency-entity.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import { account } from '@platform/contracts/core/account.ts';
import { groupMember } from '@platform/contracts/core/group-member.ts';
import { licenseHistory } from '@platform/contracts/core/license-history.ts';
import { userInfo } from '@platform/contracts/core/user-info.ts';
import { userProcess } from '@platform/contracts/core/user-process.ts';
import { AccessStampEntity, resourceStampTriggers, selectStampTriggers, sessionStampTriggers } from './access-stamp.ts';
import { SCHEMA } from './schema.ts';
import { AccessTokenEntity } from './access-token.entity.ts';
import { secondFactorEntities } from './second-factor.entity.ts';
import { ssoEntities } from './sso-tables.ts';
import { CALLER, OWN_ROW, tenantVisible, tenantWall, tenantWallWithNulls } from '@platform/service-kit/db/tenant-wall.ts';

export { SCHEMA } from './schema.ts';
/**
 * What a user's identity rows and the accounts add to the tenant wall (docs/adr/0151-row-level-security-the-second-wall.md):
 * a user sees its own user-info and user-process in any tenant; a tenant sees the user-info and
 * user-process of the users who have a select in it (its members: docs/adr/0125-a-tenant-finds-its-members-not-others.md);
 * a user sees the accounts it has a select in (the tenants it may switch to, by their names).
 * `core.user_select_tenant` is a view of the owner's, which the policies do not apply to.
 */
const member = (table: string) =>
  `exists (select 1 from core.user_select_tenant m where m.user_code = ${table}.user_code and (${tenantVisible('m.cr_process_id')}))`;
const CALLERS_ACCOUNT = `exists (select 1 from core.user_select_tenant m where m.user_code = ${CALLER} and m.cr_process_id = account.cr_process_id)`;

export const schemas = entitySchemas(coreResources, SCHEMA, resourceStampTriggers, [], {
  'user-info': [OWN_ROW, member('user_info')],
  'user-process': [OWN_ROW, member('user_process')],
  account: [CALLERS_ACCOUNT],
});

/** The entity of a resource, typed by its declaration (RowOf), for the service's own queries. */
function schemaOf<R extends Resource>(resource: R): EntitySchema<RowOf<R>> {
  const schema = schemas.get(resource.path);
  if (!schema) throw new Error(`no entity for ${resource.path}`);
  return schema as unknown as EntitySchema<RowOf<R>>;
}

export const AccountEntity = schemaOf(account);
export const UserInfoEntity = schemaOf(userInfo);
export const UserProcessEntity = schemaOf(userProcess);
export const GroupMemberEntity = schemaOf(groupMember);
export const LicenseHistoryEntity = schemaOf(licenseHistory);

/** One account a user-process may work in; deleting a referenced account is refused (409). */
export const UserProcessSelectEntity = new EntitySchema<Row>({
  name: 'UserProcessSelect',
  tableName: 'user_process_select',
  schema: SCHEMA,
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    userProcessId: { kind: 'm:1', entity: () => UserProcessEntity as never, mapToPk: true, fieldName: 'user_process_id', deleteRule: 'cascade' },
    accountId: { kind: 'm:1', entity: () => AccountEntity as never, mapToPk: true, fieldName: 'account_id', deleteRule: 'no action' },
  } as never,
  uniques: [{ properties: ['userProcessId', 'accountId'] as never, name: 'user_process_select_unique' }],
  triggers: selectStampTriggers,
});

/** A login session: opened by login, closed by logout or when it expires (docs/interface.md#records, docs/interface.md#sessions-and-logs). */
export const SessionEntity = new EntitySchema<Row>({
  name: 'Session',
  tableName: 'session_log',
  policies: tenantWall(OWN_ROW),
  schema: SCHEMA,
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    sessionId: { type: 'uuid', unique: 'session_log_session_id_unique' },
    userCode: { type: 'string', length: 64, index: true },
    userProcessId: { type: new BigIntType('number') },
    accountNo: { type: 'string', length: 64 },
    crProcessId: { type: new BigIntType('number') },
    ipAddress: { type: 'string', length: 64, nullable: true },
    userAgent: { type: 'string', length: 1000, nullable: true },
    projectCode: { type: 'string', length: 100, nullable: true },
    loginAt: { type: 'datetime', columnType: 'timestamptz' },
    lastSeenAt: { type: 'datetime', columnType: 'timestamptz' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz' },
    logoutAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    active: { type: 'boolean', default: true },
    // a personal access token's session: the roles it may use (docs/adr/0134-scoped-personal-access-tokens.md);
    // null for a login's, which may use every role its user holds
    scope: { type: 'text[]', nullable: true },
  } as never,
  triggers: sessionStampTriggers,
});

/** One unexpected failure of any part of the platform, under the refId its error body carried. */
export const ExceptionEntity = new EntitySchema<Row>({
  name: 'ExceptionEntry',
  tableName: 'exception_log',
  policies: tenantWallWithNulls(),
  schema: SCHEMA,
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    refId: { type: 'uuid', unique: 'exception_log_ref_id_unique' },
    service: { type: 'string', length: 32 },
    errorCode: { type: 'string', length: 32 },
    message: { type: 'text' },
    path: { type: 'string', length: 1000, nullable: true },
    method: { type: 'string', length: 16, nullable: true },
    userCode: { type: 'string', length: 64, nullable: true },
    crProcessId: { type: new BigIntType('number'), nullable: true },
    projectCode: { type: 'string', length: 100, nullable: true },
    requestId: { type: 'string', length: 128, nullable: true, index: 'exception_log_request_id_index' },
    stack: { type: 'text', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', index: 'exception_log_created_at_index' },
  } as never,
});

/**
 * The tenants a user holds (docs/interface.md#identity): the accounts its user-process's selects name, while
 * the user-process and the account are active. Login, switch-account and every call's live access
 * (libs/service-kit/src/auth/access.ts) read it. Declared here so that migration diffs know it.
 */
export const UserTenantView = new EntitySchema<Row>({
  name: 'UserTenant',
  tableName: 'user_tenant',
  schema: SCHEMA,
  view: true,
  expression: `select p.user_code, a.cr_process_id, a.account_no, a.account_name
    from core.user_process p
    join core.user_process_select s on s.user_process_id = p.id
    join core.account a on a.id = s.account_id
    where p.status and a.status`,
  properties: {
    userCode: { type: 'string', fieldName: 'user_code', primary: true },
    crProcessId: { type: new BigIntType('number'), fieldName: 'cr_process_id', primary: true },
    accountNo: { type: 'string', fieldName: 'account_no' },
    accountName: { type: 'string', fieldName: 'account_name' },
  } as never,
});

/**
 * The tenants a user's user-process has a select in, active or not: the fact that crosses tenants
 * by its nature (a user kept in one tenant works in others). A view of the owner's, so that the
 * row-level security policies (docs/adr/0151-row-level-security-the-second-wall.md), the checks
 * of who a tenant may administer (user-tenants.ts) and a user-process's own list of selects read it
 * whole: the tenant a user-process row belongs to is not the tenant it gives. Declared here so that migration diffs know it.
 */
export const UserSelectTenantView = new EntitySchema<Row>({
  name: 'UserSelectTenant',
  tableName: 'user_select_tenant',
  schema: SCHEMA,
  view: true,
  expression: `select p.id as user_process_id, p.user_code, a.cr_process_id, a.account_no, a.account_name
    from core.user_process p
    join core.user_process_select s on s.user_process_id = p.id
    join core.account a on a.id = s.account_id`,
  properties: {
    userProcessId: { type: new BigIntType('number'), fieldName: 'user_process_id', primary: true },
    userCode: { type: 'string', fieldName: 'user_code' },
    crProcessId: { type: new BigIntType('number'), fieldName: 'cr_process_id', primary: true },
    accountNo: { type: 'string', fieldName: 'account_no' },
    accountName: { type: 'string', fieldName: 'account_name' },
  } as never,
});

/**
 * Every tenant's accounts by their numbers, nothing else of them: a caller naming an account of
 * another tenant in a user-process's selects is refused for it (403) rather than told it does not
 * exist, which the row-level security policies would make of it
 * (docs/adr/0151-row-level-security-the-second-wall.md). A view of the owner's. Declared here so
 * that migration diffs know it.
 */
export const AccountKeyView = new EntitySchema<Row>({
  name: 'AccountKey',
  tableName: 'account_key',
  schema: SCHEMA,
  view: true,
  expression: 'select a.id, a.account_no, a.cr_process_id from core.account a',
  properties: {
    id: { type: new BigIntType('number'), fieldName: 'id', primary: true },
    accountNo: { type: 'string', fieldName: 'account_no' },
    crProcessId: { type: new BigIntType('number'), fieldName: 'cr_process_id' },
  } as never,
});

/**
 * Every tenant's users by their codes, with the tenant each is stored in and nothing else: a caller
 * naming a user of another tenant is told so (403, or "not in this tenant") rather than that the
 * user does not exist, which the row-level security policies would make of it
 * (docs/adr/0151-row-level-security-the-second-wall.md). A view of the owner's. Declared here so
 * that migration diffs know it.
 */
export const UserKeyView = new EntitySchema<Row>({
  name: 'UserKey',
  tableName: 'user_key',
  schema: SCHEMA,
  view: true,
  expression: 'select u.user_code, u.cr_process_id from core.user_info u',
  properties: {
    userCode: { type: 'string', fieldName: 'user_code', primary: true },
    crProcessId: { type: new BigIntType('number'), fieldName: 'cr_process_id' },
  } as never,
});

/**
 * The roles a user holds in a tenant (docs/interface.md#identity): the roleCodes of the role-types that
 * group-roles link to the tenant's groups the user is a member of, where group, membership,
 * group-role and role-type are all active. Every service's live access reads it
 * (libs/service-kit/src/auth/access.ts), and counts it only while the user holds the tenant (`user_tenant`).
 * Declared here so that migration diffs know it.
 */
export const UserTenantRoleView = new EntitySchema<Row>({
  name: 'UserTenantRole',
  tableName: 'user_tenant_role',
  schema: SCHEMA,
  view: true,
  expression: `select distinct m.user_code, g.cr_process_id, t.role_code
    from core.group_member m
    join core.security_group g on g.id = m.group_id and g.cr_process_id = m.cr_process_id
    join core.group_role r on r.group_id = g.id and r.cr_process_id = g.cr_process_id
    join core.role_type t on t.id = r.role_type_id and t.cr_process_id = g.cr_process_id
    where g.status and m.status and r.status and t.status`,
  properties: {
    userCode: { type: 'string', fieldName: 'user_code', primary: true },
    crProcessId: { type: new BigIntType('number'), fieldName: 'cr_process_id', primary: true },
    roleCode: { type: 'string', fieldName: 'role_code', primary: true },
  } as never,
});

export const entities = [
  ...schemas.values(),
  ...tenantCountSchemas(coreResources, SCHEMA),
  UserTenantView,
  UserTenantRoleView,
  UserSelectTenantView,
  AccountKeyView,
  UserKeyView,
  UserProcessSelectEntity,
  SessionEntity,
  ExceptionEntity,
  AccessStampEntity,
  AccessTokenEntity,
  outboxEntity(SCHEMA),
  ...importEntities(SCHEMA),
  idempotencyEntity(SCHEMA),
  ...secondFactorEntities(UserInfoEntity as never),
  ...ssoEntities,
];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
