import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf } from '@platform/kit/idempotency/idempotency-key.ts';
import express, { type Express, type RequestHandler } from 'express';
import type { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import type { GatewayConfig } from './config.ts';
import { DomainError, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { ExceptionRecorder } from '@platform/kit/grpc/exception-log.ts';
import type { SessionCheck } from './auth/session-check.ts';
import type { SessionsSeen } from './auth/sessions-seen.ts';
import type { Backends } from './backends.ts';
import type { GatewayMetrics } from './metrics/gateway.metrics.ts';
import { requestMetrics } from './http/request-metrics.ts';
import { accessLog } from './http/access-log.ts';
import { errorHandler } from './http/errors.ts';
import { sessionIsLive } from './http/context.ts';
import { jsonBody } from './http/json-body.ts';
import { boundByIdleness } from './http/receipt-deadline.ts';
import { apiKeyCheck } from './middleware/api-key.ts';
import { ConsoleCsrf } from './console/csrf.ts';
import { corsPolicy } from './middleware/cors.ts';
import { ipFilter } from './middleware/ip-filter.ts';
import { requestSanity } from './middleware/request-sanity.ts';
import { jwtCheck } from './middleware/jwt.ts';
import { TokenClaims } from './auth/token-claims.ts';
import { noStoreCapabilities } from './middleware/no-store.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { importRoutes } from './routes/import.ts';
import { createRateLimiting, type RateLimiting } from './middleware/rate-limit.ts';
import { registry } from './registry.ts';
import { authRoutes, loginMetadata, sessionCookie } from './routes/auth.ts';
import { secondFactorRoutes } from './routes/second-factor.ts';
import { oidcRoutes } from './routes/oidc.ts';
import { bpmRoutes } from './routes/bpm.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { tenantMemberRoutes } from './routes/tenant-members.ts';
import { crudRoutes } from './routes/crud.ts';
import { chain } from './http/chain.ts';
import { dispatchByPrefix } from './routes/route.ts';
import { FilePortCredential } from '@platform/kit/auth/file-port-credential.ts';
import { dmsProxy } from './relay/dms-proxy.ts';
import { downloadRelay } from './relay/download-relay.ts';
import { dmsFileByteRoutes } from './routes/dms-file-bytes.ts';
import type { Forward } from './relay/forward.ts';
import { dmsSharePublicRoutes } from './routes/dms-share-public.ts';
import { dmsRoutes } from './routes/dms.ts';
import { docsRoutes } from './routes/docs.ts';
import { healthRoutes } from './routes/health.ts';
import { historyRoutes } from './routes/history.ts';
import { searchRoutes } from './routes/search.ts';
import { accessTokenRoutes } from './routes/access-tokens.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { consoleFile, loadConsoleFiles } from './console/files.ts';
import { consoleManifest } from './console/manifest.ts';
import { serveConsole } from './console/serve.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  backends: Backends;
  /** The gateway's own credential for the calls it makes as itself (login, the operator paths). */
  gatewayKey: GatewayCallKey;
  sessions: SessionCheck;
  seen: SessionsSeen;
  recordFailure: ExceptionRecorder;
  log: Logger;
  /** Served at GET /metrics on the management port only; the public port records into it. */
  metrics: GatewayMetrics;
}

/** An express app with the gateway's settings: paths case-sensitive, no ETag, no X-Powered-By. */
function gatewayExpress(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  app.set('etag', false);
  return app;
}

/** 404 SVC-SYS-4001 for a path no route took. */
const notFound: RequestHandler = (req, _res, next) => next(new DomainError('SVC-SYS-4001', 'path.notFound', { path: req.path.slice(0, 200) }));

/**
 * The management app (MANAGEMENT_PORT): /actuator/health, /api/health and /metrics alone, without the filter
 * chain, for the kubelet's probes and in-cluster monitoring. On the public port the same paths are
 * rate-limited per address (docs/interface.md#limits), and every probe of every gateway pod on a
 * node comes from that node's one address: enough pods would use up the public tier and fail their
 * own probes. Anything else is 404.
 */
function createManagementApp({ config, backends, recordFailure, log, metrics }: GatewayDeps, health: RateLimiting['health']): Express {
  const app = gatewayExpress();
  // request ids, but no access lines: the probes would fill the log
  app.use(accessLog(log, { accessLines: false }));
  app.use(healthRoutes(config, backends, health).router);
  // Prometheus' scrape: the management port is private, so what the metrics tell stays inside
  app.get('/metrics', (_req, res, next) => {
    metrics.registry.metrics().then((text) => res.type(metrics.registry.contentType).send(text), next);
  });
  app.use(notFound);
  app.use(errorHandler(recordFailure));
  return app;
}

/**
 * The gateway: one origin for every path of the three services. Filter order
 * (docs/interface.md#filter-chain): IP filter, API key, rate limit, JWT, roles; then the body is read and the request translated
 * to gRPC. Roles and tenants are enforced again by the services themselves. Also the management
 * app, which shares its Redis health check.
 */
export function createApp(deps: GatewayDeps): { app: Express; management: Express } {
  const { config, backends, gatewayKey, sessions, seen, recordFailure, log, metrics } = deps;
  const app = gatewayExpress();
  app.set('trust proxy', config.trustProxy);

  const cors = corsPolicy(config.allowedOrigins);
  // the console's proof that a request comes from its own page (console/csrf.ts): one key for the whole gateway
  const csrf = new ConsoleCsrf(config.consoleCsrfSecret, config.cookieSecure);
  const consoleFiles = loadConsoleFiles(config.console.dir);
  if (!consoleFiles) log.warn({ dir: config.console.dir }, 'the console is not built: /console/ answers 503 (npm start builds it)');
  const manifest = consoleFile('resources.json', Buffer.from(JSON.stringify(consoleManifest(registry, { captchaSiteKey: config.console.captchaSiteKey }))));
  const limits = createRateLimiting(config, log, metrics);
  // an import's upload is read before the JSON body parser, its runs' routes after it
  const imports = importRoutes(registry, backends);

  // dms-svc's file port answers the gateway only: both ways there carry its credential
  const filePort = new FilePortCredential(config.dmsFilePortSecret);
  const proxy = dmsProxy(config.dms.httpAddr, filePort);
  const relay = downloadRelay(config.dms.httpAddr, filePort);
  // An upload from a live session may take as long as it keeps sending (http/receipt-deadline.ts):
  // the JWT requests whose session the gateway has core-svc check before dms-svc does (the
  // multipart upload and the resumable one's requests alike).
  const upload: Forward = async (req, res) => {
    const live = await sessionIsLive(res, sessions).catch(() => {
      throw new DomainError('SVC-SYS-5002', 'service.unavailable');
    });
    if (!live) throw unauthenticated();
    // dms-svc honours it (docs/interface.md#idempotent-requests); a malformed one is refused here, before the body
    idempotencyKeyOf(req.headers[IDEMPOTENCY_KEY_HEADER]);
    boundByIdleness(req, res, config.uploadIdleTimeoutMs);
    await proxy(req, res);
  };

  // one handler for the whole chain (http/chain.ts): express's own step between layers costs more than most of them
  app.use(
    chain([
      // The request id and the access line, first: every response carries X-Request-Id, every request has its line.
      accessLog(log, { accessLines: true }),
      requestMetrics(metrics),
      // CORS headers on every response to an allowed origin, errors (even the IP filter's 403) included.
      cors.headers,
      // 1. IP filter.
      ipFilter(config.ipFilter),
      // 1a. A path, query or forwarded header the gateway could not hand on intact: 400.
      requestSanity,
      // 2a. CORS preflight, answered before the steps that need credentials (docs/interface.md#cors).
      cors.preflight,
      // 2b. The console's built files, from memory: neither credentials nor the limiter's Redis call (docs/adr/0083-the-console-built-headless-refine.md).
      serveConsole({ files: consoleFiles, manifest, csrf, captcha: config.console.captchaSiteKey !== undefined }),
      // 2. API key (or, on the operator paths, the console's own request with a super user's session).
      apiKeyCheck(config.coreApiKey, csrf),
      // 3. Rate limit per client address.
      limits.middleware,
      // 4. JWT: a token is handed on, and verified by the service that serves it.
      jwtCheck(new TokenClaims(), seen),
      // 5. Roles: checked per call by the services (docs/interface.md#identity).

      // answers that may carry a share token or a signed URL are never cached
      noStoreCapabilities,

      // file bytes and the public share-link paths stream through to dms-svc, untouched by the JSON body parser
      dispatchByPrefix([dmsFileByteRoutes(upload, relay), dmsSharePublicRoutes(proxy, relay, limits.sharePasswordGuard), imports.upload]),
      ...jsonBody(config.maxJsonBytes),
      dispatchByPrefix([
        healthRoutes(config, backends, limits.health),
        // the API document is built once, at start, from the same tables as the routes
        docsRoutes(JSON.stringify(buildOpenApiDocument(registry))),
        authRoutes(config, backends, gatewayKey, limits.loginGuard, csrf),
        secondFactorRoutes(backends, limits.loginGuard, csrf, loginMetadata(gatewayKey), (token, maxAge) => sessionCookie(config, token, maxAge)),
        // single sign-on's redirects call core-svc as the login does: with the gateway's own credential
        oidcRoutes(config, backends, () => gatewayKey.credential),
        sessionRoutes(backends, gatewayKey),
        bpmRoutes(backends),
        // before the CRUD routes: /api/dms-audit-log/verify, /api/dms-file/search are not records' keys
        dmsRoutes(backends),
        historyRoutes(registry, backends),
        webhookRoutes(backends),
        // before the CRUD routes: /api/user-info/tenant-members is not a user's key
        tenantMemberRoutes(backends),
        searchRoutes(backends),
        accessTokenRoutes(backends),
        imports.runs,
        ...crudRoutes(registry, backends, { chargeMore: limits.chargeMore, recordFailure, sessions }),
      ]),
    ]),
  );
  app.use(notFound);
  app.use(errorHandler(recordFailure, sessions));
  return { app, management: createManagementApp(deps, limits.health) };
}
