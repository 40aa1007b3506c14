/**
 * The services themselves (docs/interface.md#identity, docs/interface.md#health): no call is served without a user token or the
 * internal credential, and each serves grpc.health.v1 and server reflection for stock clients.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import test from 'ava';
import { credentials, loadPackageDefinition, Metadata, status, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { TokenService } from '@platform/kit/auth/jwt.ts';
import { PROTO_DIR, protoFilesOf } from '@platform/service-kit/grpc/proto-files.ts';
import { BranchServiceClient } from '@platform/kit/gen/platform/bpm/v1/branch.ts';
import { AuthServiceClient } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { SessionServiceClient } from '@platform/kit/gen/platform/core/v1/session.ts';
import { adminSession, login } from './helpers/factories.ts';
import { platform } from './helpers/platform.ts';
import { claimsOf } from './helpers/tokens.ts';

const tokens = new TokenService(platform.jwtSecret);

function bearer(token: string | undefined): Metadata {
  const metadata = new Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

function sidOf(token: string): string {
  return String(claimsOf(token).sid);
}

function getBranch(token: string | undefined, id = 999_999_999): Promise<ServiceError | undefined> {
  const client = new BranchServiceClient(platform.grpc.bpm, credentials.createInsecure());
  return new Promise((resolve) =>
    client.getBranch({ id }, bearer(token), (error) => {
      client.close();
      resolve(error ?? undefined);
    }),
  );
}

test('a service refuses a call with no token, a forged one, or garbage: UNAUTHENTICATED SVC-SYS-1001', async (t) => {
  const forged = new TokenService('b'.repeat(64)).internalToken('gateway');
  for (const token of [undefined, 'garbage', forged]) {
    const error = await getBranch(token);
    t.is(error?.code, status.UNAUTHENTICATED, String(token));
    t.deepEqual(error?.metadata.get('x-error-code'), ['SVC-SYS-1001']);
  }
});

test('a service serves a user token and the internal credential', async (t) => {
  const { token } = await adminSession();
  for (const credential of [token, tokens.internalToken('test')]) {
    const error = await getBranch(credential);
    t.is(error?.code, status.NOT_FOUND);
    t.deepEqual(error?.metadata.get('x-error-code'), ['SVC-SYS-4001']);
  }
});

test('Login is served only to the internal credential, not to a user token', async (t) => {
  const { token } = await adminSession();
  const client = new AuthServiceClient(platform.grpc.core, credentials.createInsecure());
  const request = { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en', ipAddress: '', userAgent: '' };
  const call = (metadata: Metadata) =>
    new Promise<{ error: ServiceError | null; token: string | undefined }>((resolve) =>
      client.login(request, metadata, (error, response) => resolve({ error, token: response?.token })),
    );
  const asUser = await call(bearer(token));
  t.is(asUser.error?.code, status.UNAUTHENTICATED);
  const asGateway = await call(bearer(tokens.internalToken('gateway')));
  t.is(asGateway.error, null);
  t.truthy(tokens.verifyUser(asGateway.token ?? ''));
  client.close();
});

test('RecordSessionsSeen is served only to the internal credential, and moves lastSeenAt of an open session forward, to now at most', async (t) => {
  const client = new SessionServiceClient(platform.grpc.core, credentials.createInsecure());
  const internal = () => bearer(tokens.internalToken('gateway'));
  const record = (metadata: Metadata, sessionId: string, seenAt: string) =>
    new Promise<ServiceError | null>((resolve) => client.recordSessionsSeen({ seen: [{ sessionId, seenAt, token: '' }] }, metadata, (error) => resolve(error)));
  const sessionOf = (sessionId: string) =>
    new Promise<{ lastSeenAt: string; loginAt: string }>((resolve, reject) =>
      client.getSession({ sessionId }, internal(), (error, session) => (error || !session ? reject(error ?? new Error('no session')) : resolve(session))),
    );
  const lastSeen = async (sessionId: string) => Date.parse((await sessionOf(sessionId)).lastSeenAt);
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  try {
    // A session of this test alone, used over gRPC only: the gateway never notes it as seen.
    const session = await login(platform.adminUser, platform.adminPassword);
    const sid = sidOf(session.token);
    const atLogin = await lastSeen(sid);
    t.is(atLogin, Date.parse((await sessionOf(sid)).loginAt), 'lastSeenAt starts at loginAt');
    await pause(50);

    for (const [name, metadata] of [
      ['no token', new Metadata()],
      ['a user token', bearer(session.token)],
    ] as const) {
      const refused = await record(metadata, sid, new Date().toISOString());
      t.is(refused?.code, status.UNAUTHENTICATED, name);
      t.deepEqual(refused?.metadata.get('x-error-code'), ['SVC-SYS-1001'], name);
    }
    t.is(await lastSeen(sid), atLogin, 'a refused call moves nothing');

    t.is(await record(internal(), sid, '2000-01-01T00:00:00.000Z'), null);
    t.is(await lastSeen(sid), atLogin, 'never backwards');

    const given = atLogin + 20;
    t.is(await record(internal(), sid, new Date(given).toISOString()), null);
    t.is(await lastSeen(sid), given, 'forward to the time given');

    await pause(20);
    const sent = Date.now();
    t.is(await record(internal(), sid, '2999-01-01T00:00:00.000Z'), null);
    const capped = await lastSeen(sid);
    t.true(capped >= sent && capped <= Date.now(), `a time in the future is taken as now: ${new Date(capped).toISOString()}`);
    t.true(capped > given, 'moved forward');

    // Only open sessions move: one ended a moment ago, and one past its expiresAt, keep their lastSeenAt.
    const [ended, expired] = await Promise.all([login(platform.adminUser, platform.adminPassword), login(platform.adminUser, platform.adminPassword)]);
    for (const [name, other, change] of [
      ['ended', ended, { active: false }],
      ['expired', expired, { expiresAt: new Date(Date.now() - 1000).toISOString() }],
    ] as const) {
      const otherSid = sidOf(other.token);
      const closed = await new Promise<string | undefined>((resolve) =>
        client.updateSession({ sessionId: otherSid, ...change }, internal(), (_error, updated) =>
          resolve(updated?.active === false ? updated.lastSeenAt : undefined),
        ),
      );
      t.truthy(closed, `${name}: the session is closed`);
      await pause(20);
      t.is(await record(internal(), otherSid, new Date().toISOString()), null);
      t.is<string | undefined, string | undefined>((await sessionOf(otherSid)).lastSeenAt, closed, `an ${name} session keeps its lastSeenAt`);
    }
  } finally {
    client.close();
  }
});

const reflectionProto = join(dirname(createRequire(import.meta.url).resolve('@grpc/reflection')), '../proto/grpc/reflection/v1/reflection.proto');

function listServices(address: string): Promise<string[]> {
  const definition = loadPackageDefinition(loadSync(reflectionProto, { keepCase: true })) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => Client } } };
  };
  const client = new definition.grpc.reflection.v1.ServerReflection(address, credentials.createInsecure()) as Client & {
    ServerReflectionInfo(): NodeJS.ReadWriteStream & { write(message: object): boolean; end(): void };
  };
  return new Promise((resolve, reject) => {
    const stream = client.ServerReflectionInfo();
    stream.on('data', (response: { list_services_response?: { service: { name: string }[] } }) => {
      resolve((response.list_services_response?.service ?? []).map((s) => s.name).sort());
      stream.end();
      client.close();
    });
    stream.on('error', reject);
    stream.write({ list_services: '' });
  });
}

test("server reflection lists every service of each process's protos for stock clients such as grpcurl", async (t) => {
  for (const service of ['core', 'bpm', 'dms'] as const) {
    const definition = loadSync(protoFilesOf(service), { includeDirs: [PROTO_DIR] });
    const declared = Object.entries(definition)
      .filter(([, value]) => !('format' in value))
      .map(([name]) => name)
      .sort();
    t.deepEqual(
      (await listServices(platform.grpc[service])).filter((name) => name.startsWith('platform.')),
      declared,
      service,
    );
  }
  // and the registry's resources are among them
  const bpm = await listServices(platform.grpc.bpm);
  t.true(bpm.includes('platform.bpm.v1.BranchService'));
});
