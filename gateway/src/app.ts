import express, { type Express } from 'express';
import type { TokenService } from '@platform/libs/auth/jwt.ts';
import type { Config } from '@platform/libs/config/config.ts';
import { DomainError } from '@platform/libs/errors/domain-error.ts';
import type { Logger } from '@platform/libs/log/logger.ts';
import type { Backends } from './backends.ts';
import { errorHandler } from './http/errors.ts';
import { apiKeyCheck } from './middleware/api-key.ts';
import { jwtCheck } from './middleware/jwt.ts';
import { registry } from './registry.ts';
import { authRoutes } from './routes/auth.ts';
import { bpmRoutes } from './routes/bpm.ts';
import { crudRoutes } from './routes/crud.ts';
import { healthRoutes } from './routes/health.ts';

export interface GatewayDeps {
  config: Config;
  backends: Backends;
  tokens: TokenService;
  log: Logger;
}

/**
 * The gateway: one origin for every path of the three services. Filter order (platform-interface.md
 * §5): IP filter, API key, rate limit, JWT, roles; then the body is read and the request translated
 * to gRPC. Roles and tenants are enforced again by the services themselves.
 */
export function createApp({ config, backends, tokens, log }: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  // 1. IP filter and 2a. CORS preflight: the edge's next step.
  app.use(apiKeyCheck(config.coreApiKey));
  // 3. Rate limit: the edge's next step.
  app.use(jwtCheck(tokens));
  // 5. Roles: checked per call by the services (decisions.md §2).

  app.use(express.json({ limit: config.maxJsonBytes }));
  app.use(healthRoutes(config, backends));
  app.use(authRoutes(config, backends, tokens));
  app.use(bpmRoutes(backends));
  app.use(crudRoutes(registry, backends));
  app.use((req, _res, next) => next(new DomainError('SVC-SYS-4001', 'path.notFound', { path: req.path.slice(0, 200) })));
  app.use(errorHandler(log));
  return app;
}
