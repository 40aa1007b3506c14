/**
 * `npm run migrate -- <up|down|status> [service…]`: the services' schema migrations, as the schemas'
 * owner (DATABASE_OWNER_URL, DATABASE_URL when unset), each under its schema's advisory lock
 * (libs/service-kit/src/db/migration-lock.ts), so migrators started together run one after the other
 * and the later ones find nothing to do. When DATABASE_OWNER_URL is set, DATABASE_URL's user is the
 * serving role, which `up` grants what serving needs (docs/adr/0150-a-serving-role-apart-from-the-owner.md).
 *
 *   up [service…]       apply what is pending, then grant; every service by default, core first;
 *                       then the job queue's schema (pg-boss's), installed or migrated and granted
 *   down service…       revert the last applied migration of each named service (dms, bpm, core order)
 *   status [service…]   applied and pending migrations per service
 *
 * Exit 0 when done, 1 when a step failed (the services after it are left alone), 2 on a usage error.
 * Production runs `up` before each rollout (deploy/base/migrate-job.yaml); its services do not migrate.
 */
import { migrateDown, migrateUp, migrationStatus } from '@platform/service-kit/db/migration-runner.ts';
import { createOrm } from '@platform/service-kit/db/orm.ts';
import { databasePoolsOf } from '@platform/service-kit/config/database-pools.ts';
import { databaseOwnerUrlOf, servingRoleOf } from '@platform/service-kit/config/database-url.ts';
import { JOB_SCHEMA } from '@platform/service-kit/jobs/job-queue.ts';
import { migrateJobSchema } from '@platform/service-kit/jobs/job-schema.ts';
import { isService, type MigratedService, SERVICES, serviceSchema } from './lib/service-schemas.ts';

const USAGE = `usage: npm run migrate -- up [service…]
       npm run migrate -- down service…
       npm run migrate -- status [service…]
services: ${SERVICES.join(', ')} (up and status: all by default)`;

type Command = 'up' | 'down' | 'status';

// A closed output pipe (`npm run migrate -- status | head`) must not end a migration midway.
process.stdout.on('error', () => undefined);
const say = (line: string): void => void process.stdout.write(`${line}\n`);

function usage(problem: string): never {
  process.stderr.write(`migrate: ${problem}\n${USAGE}\n`);
  process.exit(2);
}

function parse(args: string[]): { command: Command; services: MigratedService[] } {
  const [command, ...names] = args;
  if (command !== 'up' && command !== 'down' && command !== 'status') usage(command ? `unknown command ${command}` : 'no command');
  const unknown = names.filter((name) => !isService(name));
  if (unknown.length > 0) usage(`unknown service ${unknown.join(', ')}`);
  // reverting is never implied: down names what it reverts
  if (command === 'down' && names.length === 0) usage('down reverts only the services it names');
  const chosen = names.length === 0 ? [...SERVICES] : SERVICES.filter((service) => names.includes(service));
  return { command, services: command === 'down' ? chosen.reverse() : chosen };
}

async function run(command: Command, service: MigratedService, url: string, servingRole: string | undefined): Promise<void> {
  const { SCHEMA, entities, migrationsDir } = await serviceSchema(service);
  const orm = await createOrm({ url, schema: SCHEMA, entities, migrationsDir, poolSize: databasePoolsOf(process.env, 'migrate').orm });
  const options = {
    applicationName: `migrate ${command} ${service}`,
    onWait: (holders: string[]) => say(`${service}: waiting for the migration lock, held by ${holders.join(', ') || 'a session that just ended'}`),
  };
  try {
    if (command === 'up') {
      const applied = await migrateUp(orm, { ...options, servingRole });
      for (const name of applied) say(`${service}: applied ${name}`);
      say(`${service}: up to date${applied.length === 0 ? ', nothing to apply' : `, ${applied.length} applied`}`);
    } else if (command === 'down') {
      const reverted = await migrateDown(orm, options);
      say(reverted ? `${service}: reverted ${reverted}` : `${service}: nothing to revert, no migration is applied`);
    } else {
      const { applied, pending } = await migrationStatus(orm, options);
      say(`${service}: ${applied.length} applied, ${pending.length} pending`);
      for (const { name, executedAt } of applied) say(`  applied  ${executedAt.toISOString()}  ${name}`);
      for (const name of pending) say(`  pending  ${' '.repeat(24)}  ${name}`);
    }
  } finally {
    await orm.close();
  }
}

const { command, services } = parse(process.argv.slice(2));
if (!process.env.DATABASE_URL) usage('DATABASE_URL is not set');
const url = databaseOwnerUrlOf(process.env);
let servingRole: string | undefined;
try {
  servingRole = servingRoleOf(process.env);
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
const steps: { name: string; run: () => Promise<void> }[] = services.map((service) => ({ name: service, run: () => run(command, service, url, servingRole) }));
if (command === 'up') {
  steps.push({
    name: `the job queue's schema ${JOB_SCHEMA}`,
    run: async () => {
      await migrateJobSchema({ ownerUrl: url, schema: JOB_SCHEMA, servingRole, lock: { applicationName: `migrate up ${JOB_SCHEMA}` } });
      say(`${JOB_SCHEMA}: up to date`);
    },
  });
}
for (const [index, step] of steps.entries()) {
  try {
    await step.run();
  } catch (error) {
    process.stderr.write(`migrate: ${command} ${step.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    const rest = steps.slice(index + 1).map((next) => next.name);
    if (rest.length > 0) process.stderr.write(`migrate: not run for ${rest.join(', ')}\n`);
    process.exit(1);
  }
}
