import { main } from '@platform/service-kit/grpc/service-main.ts';
import { loadServiceConfig } from '@platform/service-kit/config/service-config.ts';
import { entities, migrationsDir } from './db.ts';
import { register } from './server.ts';

main(
  async () => ({
    name: 'bpm',
    loadConfig: loadServiceConfig,
    entities,
    migrationsDir,
    register,
  }),
  'bpm-svc',
);
