import type { OperationTable } from '@platform/contracts/operation.ts';
import { statfs } from 'node:fs/promises';
import type { GatewayConfig } from '../config.ts';
import type { Backends } from '../backends.ts';
import { routerFor, type RouteGroup } from './route.ts';

type Status = 'UP' | 'DOWN';
interface Component {
  status: Status;
  details?: Record<string, number | string>;
}

/** Free space below which diskSpace is DOWN (Spring Boot's default threshold). */
const DISK_THRESHOLD_BYTES = 10 * 1024 * 1024;

async function diskSpace(path: string): Promise<Component> {
  try {
    const stats = await statfs(path);
    const free = stats.bavail * stats.bsize;
    return {
      status: free >= DISK_THRESHOLD_BYTES ? 'UP' : 'DOWN',
      details: { total: stats.blocks * stats.bsize, free, threshold: DISK_THRESHOLD_BYTES },
    };
  } catch {
    return { status: 'DOWN' };
  }
}

const up = (ok: boolean): Component => ({ status: ok ? 'UP' : 'DOWN' });

export const HEALTH_ROUTES = {
  health: {
    method: 'get',
    path: '/actuator/health',
    doc: (sources) => ({
      tag: 'health',
      summary: 'Health of the gateway and what it depends on',
      ok: { status: 200, schema: sources.ref('Health'), description: 'Every component UP.' },
      alsoAnswers: { status: 503, description: 'A component DOWN.' },
    }),
  },
  liveness: {
    method: 'get',
    path: '/api/health',
    doc: (sources) => ({
      tag: 'health',
      summary: 'Liveness of the gateway',
      ok: { status: 200, schema: sources.ref('Liveness'), description: 'The gateway answers.' },
    }),
  },
} as const satisfies OperationTable;

/**
 * GET /actuator/health: core, bpm, dms (grpc.health.v1 of each), db (as core sees it) and
 * diskSpace; 503 with DOWN when one is down (docs/interface.md#health). GET /api/health: liveness.
 */
export function healthRoutes(config: GatewayConfig, backends: Backends, extra: () => Promise<Record<string, Component>> = async () => ({})): RouteGroup {
  return routerFor(HEALTH_ROUTES, {
    health: async (_req, res) => {
      const [core, bpm, dms, db, disk, more] = await Promise.all([
        backends.health('core'),
        backends.health('bpm'),
        backends.health('dms'),
        backends.health('core', 'db'),
        diskSpace(config.dataDir),
        extra(),
      ]);
      const components: Record<string, Component> = { core: up(core), bpm: up(bpm), dms: up(dms), db: up(db), diskSpace: disk, ...more };
      const status: Status = Object.values(components).every((c) => c.status === 'UP') ? 'UP' : 'DOWN';
      res
        .status(status === 'UP' ? 200 : 503)
        .setHeader('Cache-Control', 'no-store')
        .json({ status, components });
    },
    liveness: (_req, res) => {
      res.setHeader('Cache-Control', 'no-store').json({ status: 'UP' });
    },
  });
}
