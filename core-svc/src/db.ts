import { fileURLToPath } from 'node:url';
import { BigIntType, EntitySchema } from '@mikro-orm/postgresql';
import { entitySchemas, type Row } from '@platform/libs/db/entity-schema.ts';
import { coreResources } from './resources/index.ts';

/** The core service's own PostgreSQL schema. */
export const SCHEMA = 'core';
export const schemas = entitySchemas(coreResources, SCHEMA);

function schemaOf(path: string): EntitySchema<Row> {
  const schema = schemas.get(path);
  if (!schema) throw new Error(`no entity for ${path}`);
  return schema;
}

export const AccountEntity = schemaOf('account');
export const UserInfoEntity = schemaOf('user-info');
export const UserProcessEntity = schemaOf('user-process');

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
});

/** A login session: opened by login, closed by logout or when it expires (decisions.md §3, §7). */
export const SessionEntity = new EntitySchema<Row>({
  name: 'Session',
  tableName: 'session_log',
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
  } as never,
});

export const entities = [...schemas.values(), UserProcessSelectEntity, SessionEntity];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
