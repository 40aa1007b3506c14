import { main } from '@platform/service-kit/grpc/service-main.ts';
import { entities, migrationsDir } from './db.ts';
import { register } from './server.ts';

main(
  async () => ({
    name: 'bpm',
    entities,
    migrationsDir,
    register,
  }),
  'bpm-svc',
);
