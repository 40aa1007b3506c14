import express, { type Express } from 'express';
import type { TokenService } from '@platform/libs/auth/jwt.ts';
import type { Config } from '@platform/libs/config/config.ts';
import { DomainError } from '@platform/libs/errors/domain-error.ts';
import type { Logger } from '@platform/libs/log/logger.ts';
import type { ExceptionRecorder } from '@platform/libs/grpc/exception-log.ts';
import type { SessionCheck } from './auth/session-check.ts';
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
  recordFailure: ExceptionRecorder;
  log: Logger;
}

/**
 * The gateway: one origin for every path of the three services. Filter order (platform-interface.md
 * §5): IP filter, API key, rate limit, JWT, roles; then the body is read and the request translated
 * to gRPC. Roles and tenants are enforced again by the services themselves.
 */
export function createApp({ config, backends, tokens, sessions, recordFailure, log }: GatewayDeps): Express {
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
  app.use(jwtCheck(tokens, sessions));
  // 5. Roles: checked per call by the services (decisions.md §2).

  app.use(express.json({ limit: config.maxJsonBytes }));
  app.use(healthRoutes(config, backends, limits.health));
  app.use(authRoutes(config, backends, tokens, limits.loginGuard));
  app.use(sessionRoutes(backends, tokens));
  app.use(bpmRoutes(backends));
  app.use(crudRoutes(registry, backends));
  app.use((req, _res, next) => next(new DomainError('SVC-SYS-4001', 'path.notFound', { path: req.path.slice(0, 200) })));
  app.use(errorHandler(log, recordFailure));
  return app;
}
