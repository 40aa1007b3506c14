/**
 * clamd of the production overlay (deploy/components/clamav, deploy/README.md "Virus scanning"): the
 * official image pinned by version with freshclam inside, a StreamMaxLength (and the scan limits) at
 * least DMS_MAX_UPLOAD_BYTES so that no upload the platform accepts is only partly read, dms-svc's
 * CLAMD_ADDRESS naming its Service, and a NetworkPolicy that lets only dms-svc reach port 3310. The
 * hardening every pod shares is checked with the others (test/deploy-workloads.test.ts).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IService } from 'kubernetes-models/v1/Service';
import { parseClamdAddress } from '@platform/kit/config/clamd.ts';
import { loadDmsConfig } from '@platform/dms-svc/config.ts';
import { CLAMAV, CLAMD_PORT, DEPLOY, DEPLOYMENTS, DNS_PORT, POSTGRES_PORT } from './helpers/deploy-layout.ts';
import { render } from './helpers/deploy-render.ts';
import { app, containerPort, labelSelectorMatches, podLabels } from './helpers/deploy-objects.ts';
import { egressAllowed, ingressAllowed } from './helpers/deploy-network-policy.ts';

const rendered = render('production');
const clamav = rendered.deployment(CLAMAV);
const container = app(clamav);
const labels = podLabels(clamav);

/** A clamd.conf size (`1024M`, `512K`, bytes) in bytes. */
function bytesOf(value: string | undefined): number {
  const match = /^(\d+)([KM]?)$/i.exec(value ?? '');
  if (!match) return Number.NaN;
  return Number(match[1]) * (match[2]?.toUpperCase() === 'M' ? 1024 * 1024 : match[2]?.toUpperCase() === 'K' ? 1024 : 1);
}

test('production runs the official clamav image pinned by version, freshclam and clamd in one container; the other layers have no clamd and no CLAMD_ADDRESS', (t) => {
  t.regex(container.image ?? '', /^clamav\/clamav:\d+\.\d+\.\d+$/, 'clamav/clamav with an exact release');
  const script = container.command?.join(' ') ?? '';
  t.regex(script, /freshclam --config-file=\/etc\/clamav-platform\/freshclam\.conf --foreground/, 'signatures before clamd starts');
  t.regex(script, /freshclam [^\n]*--daemon[^\n]*&/, 'freshclam keeps them current beside clamd');
  t.regex(script, /exec clamd --config-file=\/etc\/clamav-platform\/clamd\.conf/);
  t.is(containerPort(container, 'clamd'), CLAMD_PORT);
  for (const layer of ['base', 'development', 'test'] as const) {
    t.false(render(layer).hasClamav(), `${layer}: no clamd`);
    t.is(render(layer).config().data.CLAMD_ADDRESS, undefined, `${layer}: no CLAMD_ADDRESS`);
  }
});

test("clamd's StreamMaxLength, MaxFileSize and MaxScanSize are at least DMS_MAX_UPLOAD_BYTES: every upload the platform takes is scanned whole", (t) => {
  const conf = new Map(
    readFileSync(join(DEPLOY, 'components/clamav/clamd.conf'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'))
      .map((line) => line.trim().split(/\s+/, 2) as [string, string]),
  );
  const maxUpload = Number(rendered.config().data.DMS_MAX_UPLOAD_BYTES);
  t.true(maxUpload > 0);
  for (const setting of ['StreamMaxLength', 'MaxFileSize', 'MaxScanSize']) {
    t.true(bytesOf(conf.get(setting)) >= maxUpload, `${setting} ${conf.get(setting)} ≥ DMS_MAX_UPLOAD_BYTES ${maxUpload}`);
  }
  t.is(conf.get('TCPSocket'), String(CLAMD_PORT));
  t.is(conf.get('User'), undefined, 'no user switch: the pod runs as the clamav user from the start');
  const mount = container.volumeMounts?.find((m) => m.mountPath === '/etc/clamav-platform');
  const volume = clamav.spec?.template.spec?.volumes?.find((v) => v.name === mount?.name);
  t.regex(volume?.configMap?.name ?? '', /^clamav-config-/, 'the config files are mounted from the generated ConfigMap');
});

test("dms-svc's CLAMD_ADDRESS names the clamav Service on 3310, which targets clamd's port, and production's config starts with it, failing closed", (t) => {
  const config = rendered.config().data;
  const address = parseClamdAddress(config.CLAMD_ADDRESS ?? '');
  t.deepEqual(address, { kind: 'tcp', host: CLAMAV, port: CLAMD_PORT });
  const service = rendered.one<IService>('Service', CLAMAV);
  t.true(labelSelectorMatches({ matchLabels: service.spec?.selector ?? {} }, labels));
  const port = service.spec?.ports?.find((p) => p.port === CLAMD_PORT);
  t.is(containerPort(container, port?.targetPort ?? port?.port), CLAMD_PORT);
  // the certificates GRPC_TLS_* name exist only in the pod
  const env = Object.fromEntries(Object.entries(config).filter(([name]) => !name.startsWith('GRPC_TLS_')));
  const secrets = {
    JWT_SECRET: 'a'.repeat(64),
    CORE_API_KEY: 'b'.repeat(32),
    DMS_URL_SECRET: 'c'.repeat(32),
    DMS_FILE_PORT_SECRET: 'd'.repeat(64),
    DATABASE_URL: 'x',
    REDIS_URL: 'y',
  };
  const loaded = loadDmsConfig({ ...env, ...secrets, ALLOWED_ORIGINS: 'https://app.acme.com' });
  t.is(loaded.dms.clamd?.timeoutMs, Number(config.CLAMD_TIMEOUT_MS));
  t.false(loaded.dms.clamd?.failOpen, 'production fails closed');
});

test('only dms-svc reaches clamd (3310); clamd reaches the signature mirror (443) and DNS, not PostgreSQL', (t) => {
  for (const name of DEPLOYMENTS) {
    const peer = { pod: podLabels(rendered.deployment(name)) };
    t.is(ingressAllowed(rendered, labels, container, peer, CLAMD_PORT), name === 'dms-svc', `${name} → clamav:${CLAMD_PORT}`);
    t.is(egressAllowed(rendered, peer.pod, { pod: labels }, CLAMD_PORT, 'TCP', container), name === 'dms-svc', `${name} may dial clamav:${CLAMD_PORT}`);
  }
  t.false(ingressAllowed(rendered, labels, container, { namespace: 'somewhere-else', pod: {} }, CLAMD_PORT), 'nothing from another namespace');
  t.true(egressAllowed(rendered, labels, 'external', 443), 'freshclam reaches database.clamav.net');
  t.true(egressAllowed(rendered, labels, { namespace: 'kube-system', pod: { 'k8s-app': 'kube-dns' } }, DNS_PORT, 'UDP'));
  t.false(egressAllowed(rendered, labels, 'external', POSTGRES_PORT));
});

test('clamd keeps two replicas, rolls one new ready pod in first, spreads them, and lets a drain take one at a time', (t) => {
  t.true((clamav.spec?.replicas ?? 0) >= 2);
  t.is(clamav.spec?.strategy?.rollingUpdate?.maxUnavailable, 0);
  const budget = rendered.one<IPodDisruptionBudget>('PodDisruptionBudget', CLAMAV);
  t.true(labelSelectorMatches(budget.spec?.selector, labels));
  t.is(budget.spec?.maxUnavailable, 1);
  const keys = (clamav.spec?.template.spec?.topologySpreadConstraints ?? []).map((c) => c.topologyKey).sort();
  t.deepEqual(keys, ['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
  for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) t.truthy(container[kind]?.tcpSocket, kind);
});
