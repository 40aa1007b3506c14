import { Metadata, type handleUnaryCall, type ServerUnaryCall, type UntypedServiceImplementation } from '@grpc/grpc-js';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Registry } from 'prom-client';
import type { AccessAsked, AccessSource, ReadAlong } from '../auth/access.ts';
import type { Caller, CallContext, RowAlong } from '../auth/caller.ts';
import type { TokenService } from '@platform/kit/auth/jwt.ts';
import type { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { toGrpcStatus } from '@platform/kit/errors/grpc-status.ts';
import { toDomainError } from '../errors/to-domain-error.ts';
import type { ExceptionRecorder } from '@platform/kit/grpc/exception-log.ts';
import { isLanguage } from '@platform/kit/i18n/messages.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { requestIdFrom, withRequestId } from '@platform/kit/log/request-id.ts';
import { callOriginOf, META, metaString } from '@platform/kit/grpc/metadata.ts';
import { refuseNul } from './refuse-nul.ts';
import { accessTokenClaims } from '../auth/access-token.ts';
import { isAccessToken } from '@platform/kit/auth/access-token-form.ts';
import { REPLAYED_HEADER } from '@platform/kit/idempotency/idempotency-key.ts';
import { scopedFork, type PlatformPurpose } from '../db/tenant-scope.ts';
import { callScope } from '../auth/call-scope.ts';

/** What every handler of a service shares. */
export interface Runtime {
  service: string;
  orm: MikroORM;
  tokens: TokenService;
  /**
   * The gateway's own credential and the RPCs (gRPC paths) it is accepted for, in the service the
   * gateway calls as itself (core-svc); undefined elsewhere (docs/adr/0139-the-gateway-s-own-credentials.md).
   */
  gateway?: { key: GatewayCallKey; calls: ReadonlySet<string> } | undefined;
  /** What a user may do now; read for every call a user makes. */
  access: AccessSource;
  log: Logger;
  /** Records an unexpected failure in the exception log; the client sees only its refId. */
  recordFailure: ExceptionRecorder;
  /** The process's Prometheus registry, for a service's own metrics (served on its metrics port). */
  metrics: Registry;
}

/**
 * A service method. `roles` are the roles its checks consult (grpc/requiring.ts sets them): a user's
 * live access is read for those alone. One that reads a row by key (a get) may name that read as
 * `readsAlong`: a user's call then reads it in the same statement as the caller's live access
 * (ctx.along), one round trip.
 */
export type Handler<Req, Res> = ((request: Req, ctx: CallContext) => Promise<Res>) & {
  roles?: ReadonlySet<string>;
  /** A method that works on the platform's own path, whoever calls it (db/tenant-scope.ts); else the caller's scope. */
  scope?: PlatformPurpose;
  readsAlong?: (request: Req, em: EntityManager) => ReadAlong | undefined;
};

const NO_ROLES: ReadonlySet<string> = new Set();

/** The response metadata of a replayed answer (idempotency/idempotency-key.ts). */
const REPLAYED = new Metadata();
REPLAYED.set(REPLAYED_HEADER, 'true');

/**
 * Wraps a handler as a grpc-js unary handler: refuses a request whose strings carry NUL,
 * authenticates the caller (a user token whose user and session are live, or the internal service
 * credential; nothing else is served) and reads the user's live access, forks an EntityManager for
 * the call when its handler first uses `ctx.em`, and maps whatever it throws to a gRPC status once. The call runs as its request
 * (its CallInfo's requestId, else a new id), so every line it logs and its exception entry carry that id.
 */
export function unary<Req, Res>(runtime: Runtime, method: string, handler: Handler<Req, Res>): handleUnaryCall<Req, Res> {
  const roles = handler.roles ?? NO_ROLES;
  return (call: ServerUnaryCall<Req, Res>, callback) => {
    const origin = callOriginOf(call.metadata);
    const requestId = requestIdFrom(origin.requestId);
    const { projectCode } = origin;
    let caller: Caller | undefined;
    const run = async (): Promise<Res> => {
      // the caller's access (and a get's row along) is read on the ORM's pool outside any unit of
      // work, so with the ORM's own EntityManager; the call's fork is made when the handler first
      // asks for it, and a get answered from the row along asks for none (fork() writes the
      // process's environment twice and copies the filters: about 6 µs a call)
      const orm = runtime.orm.em;
      const asked: AccessAsked = { roles, along: handler.readsAlong?.(call.request, orm) };
      let along: RowAlong | undefined;
      ({ caller, along } = await authenticate(runtime, orm, call.metadata, asked, call.getPath()));
      refuseNul(call.request);
      let em: EntityManager | undefined;
      const authenticated = caller;
      return handler(call.request, {
        // every statement of the call's work in its scope (db/tenant-scope.ts), made when first asked for
        get em() {
          em ??= scopedFork(orm, handler.scope ? { platform: handler.scope } : callScope(authenticated));
          return em;
        },
        caller,
        lang: isLanguage(origin.lang) ? origin.lang : caller.kind === 'user' ? caller.claims.lang : 'en',
        projectCode,
        client: { ipAddress: origin.clientIp, userAgent: origin.userAgent },
        idempotencyKey: origin.idempotencyKey,
        markReplayed: () => call.sendMetadata(REPLAYED),
        along,
      });
    };
    const answer = (): Promise<void> =>
      run().then(
        (response) => callback(null, response),
        (error: unknown) => {
          const domain = toDomainError(error, ({ refId, error: cause }) => {
            runtime.log.error({ method, refId, err: cause }, 'unexpected failure');
            const user = caller?.kind === 'user' ? caller.claims : undefined;
            runtime.recordFailure({
              refId,
              service: runtime.service,
              errorCode: 'SVC-SYS-5001',
              error: cause,
              path: origin.httpPath ?? method,
              method: origin.httpMethod,
              userCode: user?.userCode,
              crProcessId: user?.crProcessId,
              projectCode,
              requestId,
            });
          });
          callback(toGrpcStatus(domain));
        },
      );
    void withRequestId(requestId, answer);
  };
}

/** Wraps every handler of an implementation object with `unary`. */
export function implement(runtime: Runtime, handlers: Record<string, Handler<never, unknown>>): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(handlers)) {
    implementation[name] = unary(runtime, name, handler) as UntypedServiceImplementation[string];
  }
  return implementation;
}

/**
 * The caller, and for a user the row its access statement read along (when `asked.along` was). The
 * user's token is verified here (signature, expiry, claims: the gateway hands it on unverified,
 * docs/adr/0138-an-edge-without-the-signing-secret.md) beside the live read of its user and session.
 * The gateway's own credential is the internal caller `gateway` for the RPCs it makes as itself
 * (`path` among `runtime.gateway.calls`) and nothing anywhere else.
 */
async function authenticate(
  runtime: Runtime,
  em: EntityManager,
  metadata: Metadata,
  asked: AccessAsked,
  path: string,
): Promise<{ caller: Caller; along?: RowAlong }> {
  const header = metaString(metadata, META.authorization);
  const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
  if (!token) throw unauthenticated();
  // a personal access token is resolved from its row (auth/access-token.ts), a JWT verified
  const claims = isAccessToken(token) ? await accessTokenClaims(em, token, callOriginOf(metadata).clientIp) : runtime.tokens.verifyUser(token);
  if (claims) {
    const live = await runtime.access(em, claims, asked);
    if (!live) throw unauthenticated();
    const caller: Caller = { kind: 'user', claims, access: live.access };
    const read = asked.along;
    // the row along was read in the token's scope (auth/call-scope.ts claimsScope): a user promoted
    // to super user since its token was made may see more now, which findVisible reads in the call's
    const promoted = live.access.superUser && !claims.superUser;
    return read && live.along && !promoted ? { caller, along: { name: read.name, key: read.values[0], raw: live.along } } : { caller };
  }
  if (runtime.tokens.verifyInternal(token)) return { caller: { kind: 'internal', service: 'platform' } };
  const gateway = runtime.gateway;
  if (gateway?.key.matches(token) && gateway.calls.has(path)) return { caller: { kind: 'internal', service: 'gateway' } };
  throw unauthenticated();
}
