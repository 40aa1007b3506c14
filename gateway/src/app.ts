import express, { type Express } from 'express';
import type { TokenService } from '@platform/libs/auth/jwt.ts';
import type { Config } from '@platform/libs/config/config.ts';
import { DomainError } from '@platform/libs/errors/domain-error.ts';
import type { Logger } from '@platform/libs/log/logger.ts';
import type { ExceptionRecorder } from '@platform/libs/grpc/exception-log.ts';
import type { SessionCheck } from './auth/session-check.ts';
import type { SessionsSeen } from './auth/sessions-seen.ts';
import type { Backends } from './backends.ts';
import { errorHandler } from './http/errors.ts';
import { apiKeyCheck } from './middleware/api-key.ts';
import { corsPolicy } from './middleware/cors.ts';
import { ipFilter } from './middleware/ip-filter.ts';
import { jwtCheck } from './middleware/jwt.ts';
import { createRateLimiting } from './middleware/rate-limit.ts';
import { registry } from './registry.ts';
import { authRoutes } from './routes/auth.ts';
import { bpmRoutes } from './routes/bpm.ts';
import { crudRoutes } from './routes/crud.ts';
import { healthRoutes } from './routes/health.ts';
import { sessionRoutes } from './routes/sessions.ts';

export interface GatewayDeps {
  config: Config;
  backends: Backends;
  tokens: TokenService;
  sessions: SessionCheck;
  seen: SessionsSeen;
  recordFailure: ExceptionRecorder;
  log: Logger;
}

/**
 * The gateway: one origin for every path of the three services. Filter order (platform-interface.md
 * §5): IP filter, API key, rate limit, JWT, roles; then the body is read and the request translated
 * to gRPC. Roles and tenants are enforced again by the services themselves.
 */
/**
 * The management app (MANAGEMENT_PORT): /actuator/health and /api/health alone, without the filter
 * chain, for the kubelet's probes and in-cluster monitoring. On the public port the same paths are
 * rate-limited per address (platform-interface.md §7), and every probe of every gateway pod on a
 * node comes from that node's one address: enough pods would use up the public tier and fail their
 * own probes. Anything else is 404.
 */
function createManagementApp(config: Config, backends: Backends, extra: () => Promise<Record<string, { status: 'UP' | 'DOWN' }>>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  app.set('etag', false);
  app.use(healthRoutes(config, backends, extra));
  app.use((_req, res) => {
    res.status(404).json({ status: 'ERROR', message: 'Only /actuator/health and /api/health are served on this port', error_code: 'SVC-SYS-4001' });
  });
  return app;
}

export function createApp({ config, backends, tokens, sessions, seen, recordFailure, log }: GatewayDeps): { app: Express; management: Express } {
  const app = express();
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  const cors = corsPolicy(config.allowedOrigins);
  const limits = createRateLimiting(config, log);

  // CORS headers on every response to an allowed origin, errors (even the IP filter's 403) included.
  app.use(cors.headers);
  // 1. IP filter.
  app.use(ipFilter(config.ipFilter));
  // 2a. CORS preflight, answered before the steps that need credentials (decisions.md §2).
  app.use(cors.preflight);
  // 2. API key.
  app.use(apiKeyCheck(config.coreApiKey));
  // 3. Rate limit per client address.
  app.use(limits.middleware);
  // 4. JWT.
  app.use(jwtCheck(tokens, sessions, seen));
  // 5. Roles: checked per call by the services (decisions.md §2).

  app.use(express.json({ limit: config.maxJsonBytes }));
  app.use(healthRoutes(config, backends, limits.health));
  app.use(authRoutes(config, backends, tokens, limits.loginGuard));
  app.use(sessionRoutes(backends, tokens));
  app.use(bpmRoutes(backends));
  app.use(crudRoutes(registry, backends));
  app.use((req, _res, next) => next(new DomainError('SVC-SYS-4001', 'path.notFound', { path: req.path.slice(0, 200) })));
  app.use(errorHandler(log, recordFailure));
  return { app, management: createManagementApp(config, backends, limits.health) };
}
