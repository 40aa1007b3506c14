import { main } from '@platform/libs/grpc/service-main.ts';
import { entities, migrationsDir } from './db.ts';

/** The document service: for now its process, database connection and gRPC health. */
main(async () => ({
  name: 'dms',
  entities,
  migrationsDir,
  register: () => {},
}), 'dms-svc');
