import type { handleUnaryCall, Metadata, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Caller, CallContext, RoleSource } from '../auth/caller.ts';
import type { TokenService } from '../auth/jwt.ts';
import { unauthenticated } from '../errors/domain-error.ts';
import { toDomainError, toGrpcStatus } from '../errors/grpc-status.ts';
import type { ExceptionRecorder } from './exception-log.ts';
import { isLanguage } from '../i18n/messages.ts';
import { describeError, type Logger } from '../log/logger.ts';
import { META, metaString } from './metadata.ts';

/** What every handler of a service shares. */
export interface Runtime {
  service: string;
  orm: MikroORM;
  tokens: TokenService;
  roles: RoleSource;
  log: Logger;
  /** Records an unexpected failure in the exception log; the client sees only its refId. */
  recordFailure: ExceptionRecorder;
}

export type Handler<Req, Res> = (request: Req, ctx: CallContext) => Promise<Res>;

/**
 * Wraps a handler as a grpc-js unary handler: authenticates the caller (a user token or the
 * internal service credential; nothing else is served), forks an EntityManager for the call, and
 * maps whatever it throws to a gRPC status once.
 */
export function unary<Req, Res>(runtime: Runtime, method: string, handler: Handler<Req, Res>): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback) => {
    let caller: Caller | undefined;
    const projectCode = metaString(call.metadata, META.projectCode);
    const run = async (): Promise<Res> => {
      caller = authenticate(runtime.tokens, call.metadata);
      const em = runtime.orm.em.fork();
      const lang = metaString(call.metadata, META.lang);
      return handler(call.request, {
        em,
        caller,
        lang: isLanguage(lang) ? lang : caller.kind === 'user' ? caller.claims.lang : 'en',
        projectCode,
        roles: memoRoles(runtime.roles, em, caller),
      });
    };
    run().then(
      (response) => callback(null, response),
      (error: unknown) => {
        const domain = toDomainError(error, ({ refId, error: cause }) => {
          runtime.log.error('unexpected failure', { method, refId, ...describeError(cause) });
          const user = caller?.kind === 'user' ? caller.claims : undefined;
          runtime.recordFailure({
            refId,
            service: runtime.service,
            errorCode: 'SVC-SYS-5001',
            error: cause,
            path: metaString(call.metadata, META.httpPath) ?? method,
            method: metaString(call.metadata, META.httpMethod),
            userCode: user?.userCode,
            crProcessId: user?.crProcessId,
            projectCode,
          });
        });
        callback(toGrpcStatus(domain));
      },
    );
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

function authenticate(tokens: TokenService, metadata: Metadata): Caller {
  const header = metaString(metadata, META.authorization);
  const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
  if (!token) throw unauthenticated();
  const claims = tokens.verifyUser(token);
  if (claims) return { kind: 'user', claims };
  if (tokens.verifyInternal(token)) return { kind: 'internal', service: 'platform' };
  throw unauthenticated();
}

function memoRoles(source: RoleSource, em: EntityManager, caller: Caller): () => Promise<ReadonlySet<string>> {
  let roles: Promise<ReadonlySet<string>> | undefined;
  return () => {
    if (caller.kind !== 'user') return Promise.resolve(new Set<string>());
    roles ??= source(em, caller.claims.userCode, caller.claims.crProcessId);
    return roles;
  };
}
