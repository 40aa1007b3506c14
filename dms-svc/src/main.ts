import { main } from '@platform/libs/grpc/service-main.ts';
import { entities, migrationsDir } from './db.ts';
import { register } from './server.ts';

/** The document service: categories, share links, retention policies, account settings and the audit log. */
main(async () => ({
  name: 'dms',
  entities,
  migrationsDir,
  register,
}), 'dms-svc');
