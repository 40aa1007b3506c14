import { main } from '@platform/libs/grpc/service-main.ts';
import { coreRoleSource } from '@platform/libs/auth/roles.ts';
import { bootstrap } from './bootstrap.ts';
import { entities, migrationsDir } from './db.ts';
import { register } from './server.ts';

main(async () => ({
  name: 'core',
  protoFiles: [
    'platform/core/v1/auth.proto',
    'platform/core/v1/account.proto',
    'platform/core/v1/user_info.proto',
    'platform/core/v1/user_process.proto',
  ],
  entities,
  migrationsDir,
  roles: coreRoleSource,
  register,
  afterMigrate: bootstrap,
}), 'core-svc');
