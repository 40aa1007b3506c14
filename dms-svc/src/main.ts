import { main } from '@platform/libs/grpc/service-main.ts';
import { entities, migrationsDir } from './db.ts';
import { register, serve } from './server.ts';

main(async () => ({
  name: 'dms',
  entities,
  migrationsDir,
  register,
  serve,
}), 'dms-svc');
