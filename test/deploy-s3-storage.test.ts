/**
 * Files on object storage in a deployment (deploy/components/s3-storage, deploy/README.md "Files on
 * object storage"; rendered as the variant production-s3 of the production overlay): dms-svc on
 * DMS_STORAGE=s3 with the bucket's settings in the ConfigMap, its credentials by reference to the
 * Secret platform-s3 that no other workload reads, a way out on 443, and a configuration dms-svc
 * starts with. The other layers keep the folder (the embedded default).
 */
import test from 'ava';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { loadDmsConfig } from '@platform/dms-svc/config.ts';
import { DEPLOYMENTS, LAYERS } from './helpers/deploy-layout.ts';
import { only, render } from './helpers/deploy-render.ts';
import type { ICronJob } from 'kubernetes-models/batch/v1/CronJob';
import { app, podLabels } from './helpers/deploy-objects.ts';
import { egressAllowed } from './helpers/deploy-network-policy.ts';

/** The labels of a CronJob's pods. */
const podLabelsOf = (job: ICronJob): Record<string, string> => (job.spec?.jobTemplate.spec?.template.metadata?.labels ?? {}) as Record<string, string>;

const rendered = render('production-s3');

test('production-s3: dms-svc keeps files in the bucket of the ConfigMap, and starts on that configuration with its credentials', (t) => {
  const config = rendered.config().data;
  t.like(config, { DMS_STORAGE: 's3', DMS_S3_BUCKET: 'platform-files', DMS_S3_REGION: 'us-east-1', DMS_S3_FORCE_PATH_STYLE: 'true' });
  t.regex(config.DMS_S3_ENDPOINT ?? '', /^https:\/\//);
  t.true(Number(config.DMS_STORAGE_SWEEP_GRACE_SECONDS) >= 86_400, 'a multipart object is dated by its start: a day of grace');
  const secrets = { JWT_SECRET: 'a'.repeat(64), CORE_API_KEY: 'b'.repeat(32), DMS_URL_SECRET: 'c'.repeat(32), DMS_FILE_PORT_SECRET: 'f'.repeat(64) };
  // the mutual-TLS files are mounted in the pod, not here: checked by test/deploy-config.test.ts
  const withoutTls = Object.fromEntries(Object.entries(config).filter(([name]) => !name.startsWith('GRPC_TLS_')));
  const env = { ...withoutTls, ...secrets, APP_ENV: 'test', DMS_S3_ACCESS_KEY_ID: 'key', DMS_S3_SECRET_ACCESS_KEY: 'secret' };
  t.like(loadDmsConfig(env).dms.storage, { kind: 's3', bucket: 'platform-files', endpoint: config.DMS_S3_ENDPOINT, accessKeyId: 'key' });
});

/** The Deployments that act on the bucket: dms-svc, and its worker (retention's purge, the storage sweep). */
const ON_THE_BUCKET = ['dms-svc', 'dms-worker'];

test('production-s3: the credentials are read by dms-svc and its worker alone, each by reference to its key in the Secret platform-s3; no value is committed', (t) => {
  for (const deployment of ON_THE_BUCKET) {
    const env = app(rendered.deployment(deployment)).env ?? [];
    for (const [name, key] of [
      ['DMS_S3_ACCESS_KEY_ID', 'access-key-id'],
      ['DMS_S3_SECRET_ACCESS_KEY', 'secret-access-key'],
    ] as const) {
      const variable = env.find((entry) => entry.name === name);
      t.is(variable?.value, undefined, `${deployment}: ${name} holds no value`);
      t.deepEqual(variable?.valueFrom?.secretKeyRef, { name: 'platform-s3', key }, `${deployment}: ${name}`);
    }
  }
  t.false(
    rendered.objects.some((object) => object.kind === 'Secret' && object.metadata?.name === 'platform-s3'),
    'the Secret is the operator’s, never rendered',
  );
  for (const name of DEPLOYMENTS.filter((deployment) => !ON_THE_BUCKET.includes(deployment))) {
    t.false(JSON.stringify(rendered.deployment(name)).includes('platform-s3'), `${name} does not reference platform-s3`);
  }
});

test('production-s3: the daily backup reads the bucket as dms-svc does: the settings from the ConfigMap, the credentials from platform-s3', (t) => {
  const backup = rendered.one<ICronJob>('CronJob', 'backup');
  const env = only(backup.spec?.jobTemplate.spec?.template.spec?.containers, 'backup').env ?? [];
  for (const name of ['DMS_STORAGE', 'DMS_S3_ENDPOINT', 'DMS_S3_REGION', 'DMS_S3_BUCKET', 'DMS_S3_FORCE_PATH_STYLE']) {
    const ref = env.find((variable) => variable.name === name)?.valueFrom?.configMapKeyRef;
    t.is(ref?.key, name);
    t.is(ref?.name, rendered.config().metadata?.name, `${name} from platform-config`);
  }
  t.deepEqual(env.find((variable) => variable.name === 'DMS_S3_SECRET_ACCESS_KEY')?.valueFrom?.secretKeyRef, { name: 'platform-s3', key: 'secret-access-key' });
  t.deepEqual(env.find((variable) => variable.name === 'DMS_S3_ACCESS_KEY_ID')?.valueFrom?.secretKeyRef, { name: 'platform-s3', key: 'access-key-id' });
  t.true(egressAllowed(rendered, podLabelsOf(backup), 'external', 443), 'the backup reaches the store');
});

test('production-s3: a NetworkPolicy lets dms-svc, its worker and the backup out to the store on 443; the folder layers keep no S3 settings', (t) => {
  const policy = rendered.one<INetworkPolicy>('NetworkPolicy', 'dms-svc-to-object-storage');
  for (const deployment of ON_THE_BUCKET) {
    t.true(egressAllowed(rendered, podLabels(rendered.deployment(deployment)), 'external', 443), `${deployment} reaches the store`);
  }
  t.false(egressAllowed(rendered, podLabels(rendered.deployment('gateway')), 'external', 443), 'the gateway does not');
  t.deepEqual(policy.spec?.egress?.[0]?.ports, [{ protocol: 'TCP', port: 443 }]);
  for (const layer of LAYERS.filter((name) => name !== 'production-s3')) {
    const config = render(layer).config().data;
    t.is(config.DMS_STORAGE, undefined, `${layer}: the folder, by default`);
    t.false(
      Object.keys(config).some((key) => key.startsWith('DMS_S3_')),
      `${layer}: no S3 settings`,
    );
    for (const deployment of ON_THE_BUCKET) {
      t.false(JSON.stringify(render(layer).deployment(deployment)).includes('platform-s3'), `${layer}: no S3 credentials in ${deployment}`);
    }
  }
});
