/**
 * The services refuse NUL in any string of any request themselves, whoever the client is: 400
 * SVC-SYS-2001 (docs/interface.md#errors: "body, parameter or field invalid"), as INVALID_ARGUMENT, never a
 * 500 or an exception-log entry. PostgreSQL cannot hold NUL in text and refuses it even as a query
 * parameter, so without the check it surfaced as SVC-SYS-5001 from the first query that met it.
 */
import test from 'ava';
import { credentials, type Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { TokenService } from '@platform/kit/auth/jwt.ts';
import { toMetadata } from '@platform/kit/grpc/metadata.ts';
import { BusinessPartnerServiceClient } from '@platform/kit/gen/platform/bpm/v1/business_partner.ts';
import { AuthServiceClient } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { SessionServiceClient } from '@platform/kit/gen/platform/core/v1/session.ts';
import { UserProcessServiceClient } from '@platform/kit/gen/platform/core/v1/user_process.ts';
import { adminSession } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';

const tokens = new TokenService(platform.jwtSecret);

/** Marks this file's calls, so that the exception log can be searched for them alone (test files run side by side). */
const PROJECT = `GRPC-NUL-${process.pid}`;

function bearer(token: string): Metadata {
  return toMetadata({ token, lang: 'en', projectCode: PROJECT });
}

type Unary = (request: never, metadata: Metadata, callback: (error: ServiceError | null) => void) => unknown;

/** One unary call on a generated client; resolves with its error (undefined on success). */
function callOf<C extends { close(): void }>(
  make: () => C,
  method: (client: C) => Unary,
  request: object,
  metadata: Metadata,
): Promise<ServiceError | undefined> {
  const client = make();
  return new Promise((resolve) =>
    method(client).call(client, request as never, metadata, (error) => {
      client.close();
      resolve(error ?? undefined);
    }),
  );
}

test('a NUL in any request string is INVALID_ARGUMENT SVC-SYS-2001 at the service, with no exception-log entry', async (t) => {
  const since = new Date().toISOString();
  const internal = bearer(tokens.internalToken('test'));
  const user = bearer((await adminSession()).token);
  const core = () => new AuthServiceClient(platform.grpc.core, credentials.createInsecure());
  const sessions = () => new SessionServiceClient(platform.grpc.core, credentials.createInsecure());
  const processes = () => new UserProcessServiceClient(platform.grpc.core, credentials.createInsecure());
  const partners = () => new BusinessPartnerServiceClient(platform.grpc.bpm, credentials.createInsecure());
  const cases: [string, Promise<ServiceError | undefined>][] = [
    [
      'login userCode',
      callOf(core, (c) => c.login as Unary, { userCode: 'adm\u0000in', password: 'x', languageCode: 'en', ipAddress: '', userAgent: '' }, internal),
    ],
    ['session userCode', callOf(sessions, (c) => c.createSession as Unary, { userCode: 'a\u0000', accountNo: 'DEFAULT' }, internal)],
    ['session history userCode', callOf(sessions, (c) => c.pageSessionHistory as Unary, { userCode: '\u0000' }, internal)],
    [
      'user-process selects',
      callOf(
        processes,
        (c) => c.createUserProcess as Unary,
        { userProcess: { crProcessId: 1, userCode: 'admin', userProcessSelects: [{ accountNo: 'DEF\u0000' }] } },
        user,
      ),
    ],
    [
      'a list filter value',
      callOf(
        partners,
        (c) => c.listBusinessPartners as Unary,
        { page: { page: 0, size: 1, sorts: [], filter: { crProcessId: 1, partnerName: 'x\u0000' } } },
        user,
      ),
    ],
    [
      'a list filter key',
      callOf(
        partners,
        (c) => c.listBusinessPartners as Unary,
        { page: { page: 0, size: 1, sorts: [], filter: { crProcessId: 1, 'partner\u0000Name': 'x' } } },
        user,
      ),
    ],
    [
      'searchTerm',
      callOf(
        partners,
        (c) => c.listBusinessPartners as Unary,
        { page: { page: 0, size: 1, sorts: [], searchTerm: '\u0000', filter: { crProcessId: 1 } } },
        user,
      ),
    ],
  ];
  for (const [name, pending] of cases) {
    const error = await pending;
    t.is(error?.code, status.INVALID_ARGUMENT, `${name}: ${error?.details}`);
    t.deepEqual(error?.metadata.get('x-error-code'), ['SVC-SYS-2001'], name);
  }
  const logged = await api('POST', '/api/logs/exceptions/list', { apiKey: true, body: { page: 0, size: 500, filter: { createdAtFrom: since } } });
  t.is(logged.status, 200, logged.text);
  t.deepEqual(
    logged.body.content.filter((entry: { projectCode: string | null }) => entry.projectCode === PROJECT),
    [],
  );
});
