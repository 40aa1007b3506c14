import { fileURLToPath } from 'node:url';
import type { EntitySchema } from '@mikro-orm/postgresql';
import type { Row } from '@platform/libs/db/entity-schema.ts';

/** The document service's own PostgreSQL schema; its entities come with its features. */
export const SCHEMA = 'dms';
export const entities: EntitySchema<Row>[] = [];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
