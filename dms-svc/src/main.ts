import { main } from '@platform/service-kit/grpc/service-main.ts';
import { loadDmsConfig } from './config.ts';
import { entities, migrationsDir } from './db.ts';
import { register, serve } from './server.ts';

/** The document service: files (upload and signed download), categories, share links, retention policies, account settings and the audit log. */
main(
  async () => ({
    name: 'dms',
    loadConfig: loadDmsConfig,
    entities,
    migrationsDir,
    register,
    serve,
  }),
  'dms-svc',
);
