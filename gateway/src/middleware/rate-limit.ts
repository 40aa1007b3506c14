import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { GatewayConfig } from '../config.ts';
import type { Language } from '@platform/kit/i18n/messages.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { GatewayMetrics } from '../metrics/gateway.metrics.ts';
import { categoryOfRequest, clientIp } from '../http/context.ts';
import { clientKey } from '../limits/client-key.ts';
import { LoginGuard } from '../limits/login-guard.ts';
import { LOGIN_GUARD, SHARE_PASSWORD_GUARD } from '../limits/password-guard-kinds.ts';
import { connectRedis, followFailovers } from '../limits/redis-connection.ts';
import { TokenBucketMemory, TokenBucketRedis, TokenBucketRes } from '../limits/token-bucket.ts';
import { sendTooManyRequests } from '../limits/too-many-requests.ts';
import type { PathCategory } from '../http/path-category.ts';
import { accessTokenIdOfRequest } from '../limits/access-token-key.ts';

function perMinuteMessage(limit: number): Record<Language, string> {
  return {
    en: `Too many requests: at most ${limit} requests per minute are allowed from one address`,
    tr: `Çok fazla istek: bir adresten dakikada en fazla ${limit} isteğe izin verilir`,
  };
}

function perTokenMessage(limit: number): Record<Language, string> {
  return {
    en: `Too many requests: at most ${limit} requests per minute are allowed with one access token`,
    tr: `Çok fazla istek: bir erişim belirteciyle dakikada en fazla ${limit} isteğe izin verilir`,
  };
}

interface Tier {
  name: PathCategory;
  /** Requests per minute (RateLimit-Limit). */
  limit: number;
  limiter: TokenBucketRedis | TokenBucketMemory;
  message: Record<Language, string>;
}

/** RateLimit-Limit (per minute), RateLimit-Remaining and RateLimit-Reset (whole seconds until full) of a bucket's answer. */
export function setLimitHeaders(res: Pick<ServerResponse, 'setHeader'>, limit: number, result: TokenBucketRes): void {
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(result.remainingPoints));
  res.setHeader('RateLimit-Reset', String(Math.ceil(result.msUntilFull / 1000)));
}

/**
 * Step 3 of the filter chain (docs/interface.md#filter-chain, docs/interface.md#limits): the tier of the path (public, API key,
 * JWT) limits each client address. Every limited response carries RateLimit-Limit (the tier's
 * per-minute limit), RateLimit-Remaining and RateLimit-Reset (whole seconds until the bucket is full
 * again); one past the limit is answered 429 with Retry-After (whole seconds until a request passes)
 * and never reaches the JWT step. A personal access token's request (a `svcpat_` bearer on a JWT
 * path) is counted again in a bucket of its token's public id at the JWT tier's rate, so a token is
 * limited wherever it is used from (docs/adr/0134-scoped-personal-access-tokens.md).
 */
function limitRequests(tiers: Record<PathCategory, Tier>, perToken: Tier, metrics: GatewayMetrics | undefined): RequestHandler {
  return (req, res, next) => {
    const category = categoryOfRequest(req, res);
    const tier = tiers[category];
    tier.limiter.consume(clientKey(clientIp(req))).then(
      (result) => {
        if (result instanceof TokenBucketRes) setLimitHeaders(res, tier.limit, result);
        // a personal access token's requests fill a bucket of its own as well, wherever they come from
        const tokenId = category === 'jwt' ? accessTokenIdOfRequest(req.headers.authorization) : undefined;
        if (!tokenId) return next();
        perToken.limiter.consume(`pat:${tokenId}`).then(
          (perTokenResult) => {
            // the headers tell of whichever bucket runs out first
            if (perTokenResult instanceof TokenBucketRes && !(result instanceof TokenBucketRes && result.remainingPoints <= perTokenResult.remainingPoints))
              setLimitHeaders(res, perToken.limit, perTokenResult);
            next();
          },
          (refusal: unknown) => refused(perToken, refusal),
        );
      },
      (refusal: unknown) => refused(tier, refusal),
    );
    function refused(by: Tier, refusal: unknown): void {
      if (refusal instanceof TokenBucketRes) {
        setLimitHeaders(res, by.limit, refusal);
        metrics?.rateLimitRefused(by.name);
        sendTooManyRequests(req, res, refusal.msBeforeNext, by.message);
        return;
      }
      // Neither Redis nor the in-memory insurance answered (not expected): serve rather than fail.
      req.log.error({ err: refusal }, 'rate limiter failed');
      next();
    }
  };
}

/**
 * Takes `points` more tokens for a request step 3 already counted once, from the same buckets (its
 * tier's per address, its access token's): a bulk change counts as its number of items, so batching
 * never lets a client past its limit (docs/interface.md#bulk-changes). Resolves true when they were
 * there; false once it has answered 429 as step 3 would, the headers telling of the bucket that ran
 * out. A bulk larger than the tier's whole limit can never pass. When no bucket answers (not expected),
 * it serves, as step 3 does.
 */
export type ChargeMore = (req: Request, res: Response, points: number) => Promise<boolean>;

function chargeMore(tiers: Record<PathCategory, Tier>, perToken: Tier, metrics: GatewayMetrics | undefined): ChargeMore {
  return async (req, res, points) => {
    if (points <= 0) return true;
    const category = categoryOfRequest(req, res);
    const tokenId = category === 'jwt' ? accessTokenIdOfRequest(req.headers.authorization) : undefined;
    const buckets: [Tier, string][] = [[tiers[category], clientKey(clientIp(req))]];
    if (tokenId) buckets.push([perToken, `pat:${tokenId}`]);
    for (const [tier, key] of buckets) {
      try {
        setLimitHeaders(res, tier.limit, await tier.limiter.consume(key, points));
      } catch (refusal) {
        if (!(refusal instanceof TokenBucketRes)) {
          req.log.error({ err: refusal }, 'rate limiter failed');
          continue;
        }
        setLimitHeaders(res, tier.limit, refusal);
        metrics?.rateLimitRefused(tier.name);
        sendTooManyRequests(req, res, refusal.msBeforeNext, tier.message);
        return false;
      }
    }
    return true;
  };
}

export interface RateLimiting {
  /** Step 3 of the filter chain. */
  middleware: RequestHandler;
  /** More tokens for a request that counts as more than one (a bulk change). */
  chargeMore: ChargeMore;
  loginGuard: LoginGuard;
  /** Wrong share-link passwords per link and address (POST /api/dms-share-link/public/{token}/validate-password). */
  sharePasswordGuard: LoginGuard;
  /** The `redis` component of /actuator/health when REDIS_URL or REDIS_SENTINELS is set (docs/interface.md#health), else none. */
  health(): Promise<Record<string, { status: 'UP' | 'DOWN' }>>;
}

/**
 * The gateway's limits from the configuration: Redis-backed (REDIS_URL, or the master of REDIS_SENTINELS;
 * shared by every gateway process; keys under REDIS_KEY_PREFIX) with in-memory insurance, or in
 * memory only.
 */
export function createRateLimiting(config: GatewayConfig, log: Logger, metrics?: GatewayMetrics): RateLimiting {
  const redis = config.redis ? connectRedis(config.redis, log, 'gateway-rate-limit') : undefined;
  // The login guards (rate-limiter-flexible's counters) on a connection of their own, apart from the buckets'.
  const loginRedis = redis?.duplicate({ connectionName: 'gateway-login-guard' });
  loginRedis?.on('error', () => undefined); // the same Redis: `redis` logs its outages
  if (redis && loginRedis && config.redis?.kind === 'sentinel') followFailovers(config.redis, [redis, loginRedis], log);
  const tier = (name: PathCategory, limit: number, bucket: string = name, message = perMinuteMessage(limit)): Tier => {
    const options = { points: limit, duration: 60, keyPrefix: `${config.redisKeyPrefix}:rl:${bucket}` };
    const memory = new TokenBucketMemory(options);
    const limiter = redis ? new TokenBucketRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
    return { name, limit, limiter, message };
  };
  const tiers: Record<PathCategory, Tier> = {
    public: tier('public', config.rateLimit.public),
    'api-key': tier('api-key', config.rateLimit.apiKey),
    jwt: tier('jwt', config.rateLimit.jwt),
  };
  // per personal access token (its public id), at the JWT tier's rate: docs/adr/0134-scoped-personal-access-tokens.md
  const perToken = tier('jwt', config.rateLimit.jwt, 'access-token', perTokenMessage(config.rateLimit.jwt));
  return {
    middleware: limitRequests(tiers, perToken, metrics),
    chargeMore: chargeMore(tiers, perToken, metrics),
    loginGuard: new LoginGuard(loginRedis, `${config.redisKeyPrefix}:rl`, log, LOGIN_GUARD, metrics),
    sharePasswordGuard: new LoginGuard(loginRedis, `${config.redisKeyPrefix}:rl`, log, SHARE_PASSWORD_GUARD, metrics),
    health: async (): Promise<Record<string, { status: 'UP' | 'DOWN' }>> => {
      if (!redis) return {};
      const up = await redis.ping().then(
        (reply) => reply === 'PONG',
        () => false,
      );
      return { redis: { status: up ? 'UP' : 'DOWN' } };
    },
  };
}
