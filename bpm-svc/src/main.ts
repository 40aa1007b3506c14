import { main } from '@platform/libs/grpc/service-main.ts';
import { entities, migrationsDir } from './db.ts';
import { register } from './server.ts';

main(async () => ({
  name: 'bpm',
  protoFiles: ['platform/bpm/v1/business_partner.proto', 'platform/bpm/v1/branch.proto'],
  entities,
  migrationsDir,
  register,
}), 'bpm-svc');
