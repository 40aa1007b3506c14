/**
 * The configuration of deploy/: the ConfigMap and Secret, what each overlay sets, that no secret value is committed, and the image (deploy/README.md, docs/interface.md#configuration, docs/interface.md#health).
 * Rendered by test/helpers/deploy-render.ts.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import {
  CONFIG_KEYS,
  DEPLOY,
  DEPLOYMENTS,
  GATEWAY,
  GATEWAY_SECRET_KEYS,
  GENERATED_SECRETS,
  OPTIONAL_GATEWAY_SECRET_KEYS,
  POSTGRES_PORT,
  REDIS_PORT,
  ROOT,
  SECRET_KEYS,
  SECRET_NAME,
  TLS_VARIABLES,
} from './helpers/deploy-layout.ts';
import { eachLayer, render } from './helpers/deploy-render.ts';
import { app, envFile } from './helpers/deploy-objects.ts';
import type { K8sObject } from './helpers/deploy-render.ts';

eachLayer('every container reads the ConfigMap; the services read the whole Secret platform-secrets', (t, rendered) => {
  const config = rendered.config();
  const secrets = rendered.all<ISecret>('Secret');
  for (const name of DEPLOYMENTS) {
    const envFrom = app(rendered.deployment(name)).envFrom ?? [];
    t.true(
      envFrom.some((source) => source.configMapRef?.name === config.metadata?.name),
      `${name}: envFrom the rendered ConfigMap`,
    );
    if (name === GATEWAY) continue; // its keys one by one: the next test
    const secretRefs = envFrom.flatMap((source) => (source.secretRef ? [source.secretRef] : []));
    t.is(secretRefs.length, 1, `${name}: one secretRef`);
    const ref = secretRefs[0];
    t.not(ref?.optional, true, `${name}: the Secret is required, not optional`);
    if (secrets.length === 0) {
      t.is(ref?.name, SECRET_NAME, `${name}: references the operator's Secret ${SECRET_NAME}`);
    } else {
      t.true(
        secrets.some((secret) => secret.metadata?.name === ref?.name),
        `${name}: references the generated Secret`,
      );
    }
  }
});

eachLayer('the gateway reads its keys of platform-secrets one by one, and nothing that could hold DATABASE_URL', (t, rendered) => {
  const container = app(rendered.deployment(GATEWAY));
  const secrets = rendered.all<ISecret>('Secret').map((secret) => secret.metadata?.name);
  // a Secret or ConfigMap taken whole may hold any key: only the ConfigMap, whose keys are known
  for (const source of container.envFrom ?? []) {
    t.is(source.secretRef, undefined, `the gateway takes no Secret whole (${source.secretRef?.name})`);
    t.is(source.configMapRef?.name, rendered.config().metadata?.name, 'the gateway takes the platform ConfigMap alone whole');
  }
  t.false('DATABASE_URL' in rendered.config().data, 'the ConfigMap holds no DATABASE_URL');
  const names = (container.env ?? []).map((entry) => entry.name);
  t.false(names.includes('DATABASE_URL'), 'the gateway has no DATABASE_URL variable');
  const fromSecret = (container.env ?? []).flatMap((entry) => (entry.valueFrom?.secretKeyRef ? [{ name: entry.name, ref: entry.valueFrom.secretKeyRef }] : []));
  t.deepEqual(fromSecret.map((entry) => entry.ref.key).sort(), [...GATEWAY_SECRET_KEYS].sort(), 'the keys it reads');
  for (const { name, ref } of fromSecret) {
    t.is(ref.key, name, `${name} is read from the key of its name`);
    if (secrets.length === 0) t.is(ref.name, SECRET_NAME, `${name}: the operator's Secret ${SECRET_NAME}`);
    else t.true(secrets.includes(ref.name), `${name}: the generated Secret`);
    // Redis may be left out in development (the in-memory limiter), and under Sentinel there is no
    // REDIS_URL and maybe no password; the process refuses what its configuration lacks
    const optional = OPTIONAL_GATEWAY_SECRET_KEYS.includes(name);
    t.is(ref.optional === true, optional, `${name}: ${optional ? 'optional' : 'required'}`);
  }
});

eachLayer('the ConfigMap holds the settings and no secret', (t, rendered) => {
  const { data } = rendered.config();
  for (const key of CONFIG_KEYS) t.true(key in data, `ConfigMap has ${key}`);
  for (const key of [...SECRET_KEYS, ...OPTIONAL_GATEWAY_SECRET_KEYS, 'ADMIN_PASSWORD']) t.false(key in data, `${key} is not in the ConfigMap`);
  t.regex(data.APP_ENV ?? '', /^(development|test|production)$/);
  t.is(data.DMS_STORAGE_DIR, '/var/lib/platform/files');
});

// ---------------------------------------------------------------------------------------------
// Per layer

test('base: carries no Secret (only references platform-secrets)', (t) => {
  const rendered = render('base');
  const secrets = rendered.all<ISecret>('Secret');
  t.deepEqual(
    secrets.filter((secret) => secret.data || secret.stringData).map((secret) => secret.metadata?.name),
    [],
    'no Secret with data',
  );
  t.is(secrets.length, 0, 'no Secret at all');
});

test('production: APP_ENV=production, ALLOWED_ORIGINS set, no Secret rendered, mutual TLS, 3 to 10 gateways on CPU and request rate', (t) => {
  const rendered = render('production');
  const { data } = rendered.config();
  t.is(data.APP_ENV, 'production');
  t.not(data.ALLOWED_ORIGINS ?? '', '', 'production refuses to start without ALLOWED_ORIGINS');
  t.is(rendered.all<ISecret>('Secret').length, 0, 'the operator creates platform-secrets; nothing secret comes from git');
  for (const variable of TLS_VARIABLES) t.truthy(data[variable], `${variable}: the grpc-mtls component is included`);
  const hpa = rendered.all<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler').find((scaler) => scaler.spec?.scaleTargetRef.name === GATEWAY)?.spec;
  t.true((hpa?.minReplicas ?? 1) >= 3, 'never fewer than 3 gateways');
  t.true((hpa?.maxReplicas ?? 0) > (hpa?.minReplicas ?? 1), 'room to scale');
  t.is(hpa?.metrics?.find((metric) => metric.type === 'Resource')?.resource?.name, 'cpu', 'scales on CPU');
  const rate = hpa?.metrics?.find((metric) => metric.type === 'Pods')?.pods;
  t.is(rate?.metric.name, 'http_requests_per_second', 'and on request rate per pod (prometheus-adapter rule in deploy/README.md)');
  t.is(rate?.target.type, 'AverageValue');
  t.true(Number(rate?.target.averageValue) > 0);
});

test('test: APP_ENV=test (migrates at start, generates no secret), mutual TLS as in production, its own namespace', (t) => {
  const rendered = render('test');
  const { data } = rendered.config();
  t.is(data.APP_ENV, 'test');
  for (const variable of TLS_VARIABLES) t.truthy(data[variable], `${variable}: the grpc-mtls component is included`);
  const namespaces = new Set(rendered.objects.filter((object) => object.kind !== 'Namespace').map((object) => object.metadata?.namespace));
  t.deepEqual([...namespaces], ['platform-test']);
  t.deepEqual(
    rendered.all<K8sObject>('Namespace').map((namespace) => namespace.metadata?.name),
    ['platform-test'],
  );
  t.not(
    rendered.all<K8sObject>('Namespace')[0]?.metadata?.name,
    render('development').all<K8sObject>('Namespace')[0]?.metadata?.name,
    'not the development namespace',
  );
});

test('development: APP_ENV=development, plaintext gRPC', (t) => {
  const { data } = render('development').config();
  t.is(data.APP_ENV, 'development');
  for (const variable of TLS_VARIABLES) t.is(data[variable], undefined, variable);
});

for (const overlay of GENERATED_SECRETS) {
  test(`${overlay}: the one Secret is generated from secrets.env (here its committed example) with every key`, (t) => {
    const rendered = render(overlay);
    const secrets = rendered.all<ISecret>('Secret');
    t.is(secrets.length, 1);
    t.regex(secrets[0]?.metadata?.name ?? '', new RegExp(`^${SECRET_NAME}-[a-z0-9]+$`), 'generated name with content hash');
    const data = secrets[0]?.data ?? {};
    for (const key of SECRET_KEYS) t.true(key in data, `Secret has ${key}`);
    // The test renders with secrets.env = secrets.env.example: the Secret carries exactly those values.
    const example = envFile(readFileSync(join(DEPLOY, `overlays/${overlay}/secrets.env.example`), 'utf8'));
    const decoded = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
    t.deepEqual(decoded, Object.fromEntries(example));
  });
}

eachLayer(
  "no Secret value is rendered from the repository: a Secret only from an overlay's secretGenerator, and no secret in any other object",
  (t, rendered) => {
    const secrets = rendered.all<ISecret>('Secret');
    if (!(GENERATED_SECRETS as readonly string[]).includes(rendered.layer)) t.is(secrets.length, 0, 'no Secret: the operator creates it');
    for (const secret of secrets) t.is(secret.stringData, undefined, `${secret.metadata?.name}: no stringData`);
    // Anything else that carries a secret's name as a key, or a value shaped like one of the keys the
    // platform requires (64+ or exactly 32 hexadecimal characters, a PEM block), holds a secret.
    for (const object of rendered.objects.filter((o) => o.kind !== 'Secret')) {
      const text = JSON.stringify(object);
      t.notRegex(text, /-----BEGIN [A-Z ]+-----/, `${object.kind} ${object.metadata?.name}: no PEM block`);
      t.notRegex(text, /"[0-9a-fA-F]{64,}"|"[0-9a-fA-F]{32}"/, `${object.kind} ${object.metadata?.name}: no hexadecimal key`);
    }
  },
);

test('secrets.env is git-ignored and the committed example holds placeholders only', (t) => {
  for (const overlay of ['development', 'test', 'production']) {
    const path = `deploy/overlays/${overlay}/secrets.env`;
    const ignored = spawnSync('git', ['check-ignore', '--no-index', '--quiet', path], { cwd: ROOT });
    t.is(ignored.status, 0, `${path} is git-ignored`);
  }
  for (const overlay of GENERATED_SECRETS) {
    const values = envFile(readFileSync(join(DEPLOY, `overlays/${overlay}/secrets.env.example`), 'utf8'));
    for (const key of SECRET_KEYS) t.true(values.has(key), `${overlay}: the example lists ${key}`);
    // Real-looking keys would be accepted at start-up; the placeholders are refused on purpose.
    t.notRegex(values.get('JWT_SECRET') ?? '', /^[0-9a-fA-F]{64,}$/, `${overlay}: JWT_SECRET is a placeholder`);
    t.notRegex(values.get('CORE_API_KEY') ?? '', /^[0-9a-fA-F]{32}$/, `${overlay}: CORE_API_KEY is a placeholder`);
    t.notRegex(values.get('DMS_URL_SECRET') ?? '', /^[0-9a-fA-F]{32,}$/, `${overlay}: DMS_URL_SECRET is a placeholder`);
    // the datastore egress policies open these ports
    t.is(new URL(values.get('DATABASE_URL') ?? '').port || '5432', String(POSTGRES_PORT), `${overlay}: DATABASE_URL's port`);
    t.is(new URL(values.get('REDIS_URL') ?? '').port || '6379', String(REDIS_PORT), `${overlay}: REDIS_URL's port`);
  }
});

test("the image holds the migrate Job's command and what it imports from scripts/", (t) => {
  // The Dockerfile leaves scripts/ out of the image but for these; the services' folders are copied whole.
  const files: string[] = [];
  const visit = (file: string): void => {
    if (files.includes(file)) return;
    files.push(file);
    const source = readFileSync(join(ROOT, file), 'utf8');
    for (const [, specifier] of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = join(dirname(file), specifier!);
      if (target.startsWith('scripts/')) visit(target);
    }
  };
  visit('scripts/migrate.ts');
  const dockerfile = readFileSync(join(DEPLOY, 'Dockerfile'), 'utf8');
  const ignore = readFileSync(join(DEPLOY, 'Dockerfile.dockerignore'), 'utf8').split('\n');
  for (const file of files) {
    t.regex(dockerfile, new RegExp(`^COPY ${file.replace(/[.]/g, '\\.')} ${dirname(file)}/$`, 'm'), `the Dockerfile copies ${file}`);
    t.true(ignore.includes(`!${file}`), `Dockerfile.dockerignore lets ${file} into the build context`);
  }
  t.true(files.length >= 2, `found ${files.join(', ')}`);
});

test("the image copies every workspace's package.json before npm ci, which needs them all to match the lock file", (t) => {
  const dockerfile = readFileSync(join(DEPLOY, 'Dockerfile'), 'utf8');
  const install = dockerfile.search(/^RUN npm ci\b/m);
  t.true(install > 0, 'a RUN npm ci line');
  const beforeInstall = dockerfile.slice(0, install);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  t.true(pkg.workspaces.length >= 6, pkg.workspaces.join(', '));
  for (const workspace of pkg.workspaces) {
    t.regex(
      beforeInstall,
      new RegExp(`^COPY ${workspace.replace(/[.]/g, '\\.')}/package\\.json ${workspace}/$`, 'm'),
      `the Dockerfile copies ${workspace}/package.json before npm ci`,
    );
  }
});

test("the image is built FROM an exact Node release, the one the suite runs on (package.json's node), not a floating tag", (t) => {
  const dockerfile = readFileSync(join(DEPLOY, 'Dockerfile'), 'utf8');
  const froms = dockerfile.split('\n').filter((line) => /^FROM\s/i.test(line));
  t.true(froms.length >= 1, 'a FROM line');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  for (const from of froms) {
    const match = /^FROM\s+node:(\d+\.\d+\.\d+)-[a-z]+-slim(@sha256:[0-9a-f]{64})?(\s+AS\s+\S+)?$/i.exec(from.trim());
    t.truthy(match, `${from}: node:<major.minor.patch>-<debian>-slim, optionally @sha256:<digest>; no latest, no bare major`);
    t.is(match?.[1], pkg.devDependencies.node, `${from}: the Node release package.json pins for the tests`);
  }
});
