import { bool, int, type Env } from '@platform/kit/config/env.ts';
import { readSharedConfig, type OwnSecret, type SharedConfig } from '@platform/kit/config/config.ts';
import { refuseWeakInProduction } from '@platform/kit/config/production-rules.ts';

/** What every service reads: the shared settings, its metrics port, the outbox switch. */
export interface ServiceConfig extends SharedConfig {
  /** JWT_SECRET: the services sign and verify the user tokens; the gateway holds no signing key (docs/adr/0138-an-edge-without-the-signing-secret.md). */
  jwtSecret: string;
  /**
   * GATEWAY_CALL_KEY, held by the service the gateway calls as itself (core-svc): the key of the
   * gateway's own credential, accepted for the gateway's own calls only
   * (docs/adr/0139-the-gateway-s-own-credentials.md); undefined in a service that takes none.
   */
  gatewayCallKey: string | undefined;
  /** Each service's Prometheus port (CORE_METRICS_PORT, BPM_METRICS_PORT, DMS_METRICS_PORT), serving /metrics; 0: any free port. */
  metricsPorts: { core: number; bpm: number; dms: number };
  /**
   * OUTBOX_DISABLED: recordEvent writes nothing (events/outbox.ts). A measurement switch for the
   * benchmark's baseline only; production refuses it (production-rules.ts).
   */
  outboxDisabled: boolean;
}

/**
 * Reads a service's settings, without the production check (the service's own loader runs it over
 * all it reads). `own` names the secrets the service holds beside JWT_SECRET: GATEWAY_CALL_KEY for
 * core-svc, which the gateway calls as itself.
 */
export function readServiceConfig(
  env: Env,
  own: readonly Exclude<OwnSecret, 'JWT_SECRET'>[] = [],
): ServiceConfig & { secrets: Partial<Record<OwnSecret, string>> } {
  const { secrets, ...shared } = readSharedConfig(env, [], ['JWT_SECRET', ...own]);
  return {
    ...shared,
    jwtSecret: secrets.JWT_SECRET,
    gatewayCallKey: secrets.GATEWAY_CALL_KEY,
    secrets,
    metricsPorts: {
      core: int(env, 'CORE_METRICS_PORT', 9101, 0, 65_535),
      bpm: int(env, 'BPM_METRICS_PORT', 9102, 0, 65_535),
      dms: int(env, 'DMS_METRICS_PORT', 9103, 0, 65_535),
    },
    outboxDisabled: bool(env, 'OUTBOX_DISABLED', false),
  };
}

/** The configuration of a service with no settings of its own (bpm-svc), refused in production when weak. */
export function loadServiceConfig(env: Env = process.env): ServiceConfig {
  const { secrets: _own, ...config } = readServiceConfig(env);
  refuseWeakInProduction(config);
  return config;
}

/** bcrypt's cost (BCRYPT_ROUNDS, 4 to 15, default 10): core-svc's passwords, dms-svc's share-link passwords. */
export function bcryptRoundsOf(env: Env): number {
  return int(env, 'BCRYPT_ROUNDS', 10, 4, 15);
}
