// First: sizes libuv's thread pool (bcrypt runs there) before anything can start it.
import '@platform/libs/runtime/thread-pool.ts';
import { main } from '@platform/libs/grpc/service-main.ts';
import { bootstrap } from './bootstrap.ts';
import { databaseExceptionRecorder } from './logs/exception-log.service.ts';
import { entities, migrationsDir } from './db.ts';
import { register } from './server.ts';

main(async () => ({
  name: 'core',
  protoFiles: [
    'platform/core/v1/auth.proto',
    'platform/core/v1/session.proto',
    'platform/core/v1/exception_log.proto',
    'platform/core/v1/account.proto',
    'platform/core/v1/user_info.proto',
    'platform/core/v1/user_process.proto',
    'platform/core/v1/group.proto',
    'platform/core/v1/group_member.proto',
    'platform/core/v1/role_type.proto',
    'platform/core/v1/group_role.proto',
  ],
  entities,
  migrationsDir,
  register,
  afterMigrate: bootstrap,
  exceptionRecorder: databaseExceptionRecorder,
}), 'core-svc');
