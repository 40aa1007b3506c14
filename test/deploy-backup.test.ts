/**
 * The backup CronJob of the production overlay (deploy/components/backup, deploy/README.md "Backup
 * and restore"): daily, never overlapping, hardened as every other pod, writing to its own claim,
 * reading dms-svc's files read-only, reaching PostgreSQL and DNS only, and running what its image
 * holds (deploy/Dockerfile.backup). Rendered by test/helpers/deploy-render.ts.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ICronJob } from 'kubernetes-models/batch/v1/CronJob';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { DEPLOY, DNS_PORT, GATEWAY, POSTGRES_PORT, ROOT, SECRET_NAME } from './helpers/deploy-layout.ts';
import { only, render } from './helpers/deploy-render.ts';
import { egressAllowed, ingressAllowed } from './helpers/deploy-network-policy.ts';

const rendered = render('production');
const cronJob = rendered.one<ICronJob>('CronJob', 'backup');
const pod = cronJob.spec?.jobTemplate.spec?.template.spec;
const labels = cronJob.spec?.jobTemplate.spec?.template.metadata?.labels ?? {};
const container = only(pod?.containers, 'CronJob backup');

test('production backs up daily, one run at a time, bounded in time; the other layers have no backup', (t) => {
  t.regex(cronJob.spec?.schedule ?? '', /^\d+ \d+ \* \* \*$/, 'once a day');
  t.is(cronJob.spec?.concurrencyPolicy, 'Forbid');
  t.true((cronJob.spec?.jobTemplate.spec?.activeDeadlineSeconds ?? 0) > 0);
  t.is(pod?.restartPolicy, 'Never');
  for (const layer of ['base', 'development', 'test'] as const) t.is(render(layer).all('CronJob').length, 0, `${layer}: no CronJob`);
});

test('the backup pod runs hardened as the others: non-root, read-only root, no capabilities, RuntimeDefault seccomp, no token', (t) => {
  const security = container.securityContext;
  t.true(pod?.securityContext?.runAsNonRoot);
  t.true((pod?.securityContext?.runAsUser ?? 0) > 0);
  t.true(security?.readOnlyRootFilesystem);
  t.false(security?.allowPrivilegeEscalation);
  t.true(security?.capabilities?.drop?.includes('ALL'));
  t.is(pod?.securityContext?.seccompProfile?.type, 'RuntimeDefault');
  t.false(pod?.automountServiceAccountToken);
  t.is(pod?.terminationGracePeriodSeconds, 30);
  t.truthy(container.resources?.limits?.memory);
  t.truthy(container.resources?.requests?.cpu);
});

test("the backup reads dms-svc's claim read-only, writes its own, and takes DATABASE_URL from the Secret", (t) => {
  const claimOf = (mountPath: string) => {
    const mount = container.volumeMounts?.find((m) => m.mountPath === mountPath);
    const volume = pod?.volumes?.find((v) => v.name === mount?.name);
    return { mount, claim: volume?.persistentVolumeClaim };
  };
  const files = claimOf('/var/lib/platform/files');
  t.is(files.claim?.claimName, 'platform-files');
  t.true(files.mount?.readOnly && files.claim?.readOnly, 'the files are mounted read-only');
  const backups = claimOf('/backups');
  t.is(backups.claim?.claimName, 'platform-backups');
  t.truthy(rendered.one<IPersistentVolumeClaim>('PersistentVolumeClaim', 'platform-backups'));
  t.true(container.volumeMounts?.some((m) => m.mountPath === '/tmp'));
  const url = container.env?.find((variable) => variable.name === 'DATABASE_URL');
  // production has the database in the cluster (components/cloudnative-pg): the dump goes straight to
  // the primary, whose address is in the operator's Secret; elsewhere DATABASE_URL of platform-secrets
  const cluster = rendered.all('Cluster').length > 0;
  t.deepEqual(url?.valueFrom?.secretKeyRef, cluster ? { name: 'platform-db-app', key: 'uri' } : { name: SECRET_NAME, key: 'DATABASE_URL' });
  t.is(url?.value, undefined);
  t.regex(container.command?.join(' ') ?? '', /node scripts\/backup\.ts "\$dir"/);
  t.regex(container.image ?? '', /(^|\/)platform-backup:[\w][\w.-]*$/);
});

test('the backup reaches PostgreSQL and DNS only, and nothing reaches it', (t) => {
  const dns = { namespace: 'kube-system', pod: { 'k8s-app': 'kube-dns' } };
  t.true(egressAllowed(rendered, labels, 'external', POSTGRES_PORT));
  t.true(egressAllowed(rendered, labels, dns, DNS_PORT, 'UDP'));
  t.false(egressAllowed(rendered, labels, 'external', 443));
  t.false(egressAllowed(rendered, labels, 'external', 6379));
  t.false(ingressAllowed(rendered, labels, container, { pod: { 'app.kubernetes.io/name': GATEWAY } }, 8080));
});

test("the backup image holds the CronJob's command and everything it imports from scripts/", (t) => {
  const dockerfile = readFileSync(join(DEPLOY, 'Dockerfile.backup'), 'utf8');
  const ignore = readFileSync(join(DEPLOY, 'Dockerfile.backup.dockerignore'), 'utf8').split('\n');
  const copied = dockerfile
    .split('\n')
    .filter((line) => line.startsWith('COPY '))
    .flatMap((line) => line.split(/\s+/).slice(1, -1));
  const files: string[] = [];
  const visit = (file: string): void => {
    if (files.includes(file)) return;
    files.push(file);
    const source = readFileSync(join(ROOT, file), 'utf8');
    // static imports only: the dynamic ones are the embedded server's, never used with DATABASE_URL set
    for (const [, specifier] of source.matchAll(/^import [^;]*? from '(\.{1,2}\/[^']+)'/gm)) visit(join(file, '..', specifier!));
  };
  visit('scripts/backup.ts');
  visit('scripts/restore.ts');
  for (const file of files) {
    t.true(copied.includes(file), `Dockerfile.backup copies ${file}`);
    t.true(
      ignore.some((pattern) => pattern === `!${file}` || (pattern.endsWith('*.ts') && file.startsWith(pattern.slice(1, -4)))),
      `the context lets ${file} in`,
    );
  }
  t.true(files.length >= 8, files.join(', '));
});
