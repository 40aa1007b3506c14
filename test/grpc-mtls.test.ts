/**
 * Mutual TLS between the gateway and the services (GRPC_TLS_CA, GRPC_TLS_CERT, GRPC_TLS_KEY;
 * docs/adr/0052-mutual-tls-between-the-processes.md): a platform of its own started with certificates made here by
 * openssl serves through its gateway, and its services refuse every caller without a certificate of
 * their CA. A partial setting refuses the start.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Client, credentials, Metadata, status, type ChannelCredentials, type ServiceError } from '@grpc/grpc-js';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import { loadServiceConfig } from '@platform/service-kit/config/service-config.ts';
import { PlatformStartError } from '../scripts/lib/platform-start-error.ts';
import { retryingTakenPorts } from '../scripts/lib/free-ports.ts';
import { startPlatform, type Platform } from '../scripts/lib/processes.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { makeCertificates, type CertificateFiles } from './helpers/certificates.ts';
import { freshTenant, sessionOf, unique } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';

const SERVICES = ['core-svc', 'bpm-svc', 'dms-svc'] as const;
const ADDRESS_VARIABLES = { 'core-svc': 'CORE_GRPC_ADDR', 'bpm-svc': 'BPM_GRPC_ADDR', 'dms-svc': 'DMS_GRPC_ADDR' } as const;

/** Where a service of this test's platform listens, by the name its certificate carries. */
function addressOf(service: (typeof SERVICES)[number]): string {
  return own!.env[ADDRESS_VARIABLES[service]]!;
}

let dir: string;
let files: CertificateFiles;
/** A CA of its own and a certificate it signed, with the same names: trusted by nobody here. */
let stranger: CertificateFiles;
let own: Platform | undefined;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'platform-grpc-tls-'));
  files = makeCertificates(dir, 'platform', ['DNS:localhost', 'IP:127.0.0.1']);
  stranger = makeCertificates(dir, 'stranger', ['DNS:localhost', 'IP:127.0.0.1']);
  const env: Record<string, string | undefined> = { ...platform.env, GRPC_TLS_CA: files.ca, GRPC_TLS_CERT: files.cert, GRPC_TLS_KEY: files.key };
  // fresh ports for every process; the gateway dials the services by name, as in a cluster (a TLS
  // client checks the name against the certificate: this one names localhost)
  for (const name of ['GATEWAY_PORT', 'MANAGEMENT_PORT', 'DMS_HTTP_ADDR']) delete env[name];
  for (const name of ['CORE_METRICS_PORT', 'BPM_METRICS_PORT', 'DMS_METRICS_PORT']) env[name] = '0';
  // ports picked anew for each start, again if one is taken before its service binds it
  own = await retryingTakenPorts(async () => {
    for (const name of ['CORE_GRPC_ADDR', 'BPM_GRPC_ADDR', 'DMS_GRPC_ADDR']) env[name] = `localhost:${await freePort()}`;
    return startPlatform({ env, ports: 'free', log: suiteLog() });
  });
});

test.after.always(async () => {
  await own?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function pem(path: string): Buffer {
  return readFileSync(path);
}

/** grpc.health.v1 Check of the whole server at `address`: its status, or the error the call failed with. */
function healthCheck(address: string, channel: ChannelCredentials): Promise<{ serving: boolean } | { error: ServiceError }> {
  const client = new Client(address, channel);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      () => Buffer.alloc(0),
      (bytes: Buffer) => bytes.equals(Buffer.from([0x08, 0x01])),
      {},
      new Metadata(),
      { deadline: Date.now() + 5_000 },
      (error, serving) => {
        client.close();
        resolve(error ? { error } : { serving: serving === true });
      },
    );
  });
}

test.serial('through the gateway, every service answers over mutual TLS: login, records of bpm and dms, health UP', async (t) => {
  const url = own!.url;
  const login = await api('POST', '/api/auth/login', {
    baseUrl: url,
    apiKey: true,
    body: { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en' },
  });
  t.is(login.status, 200, login.text);
  const token = sessionOf(login).token;
  const me = await api('GET', '/api/auth/me', { baseUrl: url, token });
  t.is(me.status, 200, me.text);
  const crProcessId = freshTenant();
  const partner = await api('POST', '/api/business-partner', {
    baseUrl: url,
    token,
    body: { crProcessId, partnerCode: unique('P-'), partnerName: unique('Partner '), partnerType: 'CUSTOMER' },
  });
  t.is(partner.status, 200, partner.text);
  const categories = await api('POST', '/api/dms-category/list', { baseUrl: url, token, body: { page: 0, size: 1, filter: { crProcessId } } });
  t.is(categories.status, 200, categories.text);
  const health = await api('GET', '/actuator/health', { baseUrl: url });
  t.is(health.status, 200, health.text);
  for (const component of ['core', 'bpm', 'dms']) t.is(health.body.components[component].status, 'UP', component);
});

test.serial('a client with a certificate of the CA is served: the control for the refusals below', async (t) => {
  for (const service of SERVICES) {
    const answer = await healthCheck(addressOf(service), credentials.createSsl(pem(files.ca), pem(files.key), pem(files.cert)));
    t.deepEqual(answer, { serving: true }, service);
  }
});

test.serial('a plaintext gRPC client is refused by every service', async (t) => {
  for (const service of SERVICES) {
    const answer = await healthCheck(addressOf(service), credentials.createInsecure());
    t.true('error' in answer, `${service} answered a plaintext call`);
    if ('error' in answer) t.is(answer.error.code, status.UNAVAILABLE, `${service}: ${answer.error.message}`);
  }
});

test.serial('a TLS client without a certificate, or with one of another CA, is refused by every service', async (t) => {
  const callers = {
    'no client certificate': credentials.createSsl(pem(files.ca)),
    'a certificate of another CA': credentials.createSsl(pem(files.ca), pem(stranger.key), pem(stranger.cert)),
  };
  for (const service of SERVICES) {
    for (const [caller, channel] of Object.entries(callers)) {
      const answer = await healthCheck(addressOf(service), channel);
      t.true('error' in answer, `${service} served a caller with ${caller}`);
      if ('error' in answer) t.is(answer.error.code, status.UNAVAILABLE, `${service}, ${caller}: ${answer.error.message}`);
    }
  }
});

test.serial('a server certificate of another CA is refused by the gateway: its health names every service DOWN', async (t) => {
  // this gateway presents a certificate the services accept, but trusts only the stranger's CA,
  // which did not sign theirs
  const gateway = await startPlatform({
    env: {
      ...platform.env,
      GATEWAY_PORT: '0',
      MANAGEMENT_PORT: '',
      CORE_GRPC_ADDR: own!.env.CORE_GRPC_ADDR,
      BPM_GRPC_ADDR: own!.env.BPM_GRPC_ADDR,
      DMS_GRPC_ADDR: own!.env.DMS_GRPC_ADDR,
      DMS_HTTP_ADDR: own!.env.DMS_HTTP_ADDR,
      GRPC_TLS_CA: stranger.ca,
      GRPC_TLS_CERT: files.cert,
      GRPC_TLS_KEY: files.key,
    },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
  });
  try {
    const health = await api('GET', '/actuator/health', { baseUrl: gateway.url });
    t.is(health.status, 503, health.text);
    for (const component of ['core', 'bpm', 'dms']) t.is(health.body.components[component].status, 'DOWN', component);
  } finally {
    await gateway.stop();
  }
});

test.serial('each service answers GET /health on its metrics port, for the kubelet, whose gRPC probe has no certificate', async (t) => {
  for (const service of SERVICES) {
    const res = await fetch(`http://${own!.metrics[service]}/health`);
    t.is(res.status, 200, service);
    t.deepEqual(await res.json(), { status: 'SERVING' }, service);
  }
});

test('a partial GRPC_TLS_* setting refuses the start, naming what is missing', async (t) => {
  const error = await t.throwsAsync(
    startPlatform({
      env: { ...platform.env, GATEWAY_PORT: '0', MANAGEMENT_PORT: '', GRPC_TLS_CA: files.ca, GRPC_TLS_CERT: files.cert },
      entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
      log: 'silent',
      readyTimeoutMs: 15_000,
    }),
    { instanceOf: PlatformStartError },
  );
  t.is(error?.service, 'gateway');
  t.regex(
    error?.message ?? '',
    /GRPC_TLS_CA, GRPC_TLS_CERT, GRPC_TLS_KEY go together \(all three or none\): GRPC_TLS_CA, GRPC_TLS_CERT set, GRPC_TLS_KEY missing/,
  );
});

test("a key that is not the certificate's, a file that cannot be read or is no certificate refuse the configuration, naming the variable", (t) => {
  const base = { APP_ENV: 'test', JWT_SECRET: 'a'.repeat(64), CORE_API_KEY: 'b'.repeat(32), DMS_URL_SECRET: 'c'.repeat(32) };
  const tls = { GRPC_TLS_CA: files.ca, GRPC_TLS_CERT: files.cert, GRPC_TLS_KEY: files.key };
  t.truthy(loadServiceConfig({ ...base, ...tls }).grpcTls, 'the three files make a TLS setting');
  t.is(loadServiceConfig(base).grpcTls, undefined, 'none: plaintext');
  t.throws(() => loadServiceConfig({ ...base, ...tls, GRPC_TLS_KEY: stranger.key }), {
    instanceOf: ConfigError,
    message: /GRPC_TLS_KEY .* is not the private key of GRPC_TLS_CERT/,
  });
  t.throws(() => loadServiceConfig({ ...base, ...tls, GRPC_TLS_CA: join(dir, 'missing.crt') }), {
    instanceOf: ConfigError,
    message: /GRPC_TLS_CA: cannot read .*missing\.crt: ENOENT/,
  });
  t.throws(() => loadServiceConfig({ ...base, ...tls, GRPC_TLS_CERT: files.key }), {
    instanceOf: ConfigError,
    message: /GRPC_TLS_CERT is not a PEM certificate/,
  });
  t.throws(() => loadServiceConfig({ ...base, GRPC_TLS_KEY: files.key }), { instanceOf: ConfigError, message: /GRPC_TLS_CA, GRPC_TLS_CERT missing/ });
});
