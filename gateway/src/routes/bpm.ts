import type { Router } from 'express';
import { branch } from '@platform/bpm-svc/resources/branch/branch.resource.ts';
import type { Backends } from '../backends.ts';
import { idParam } from '../http/params.ts';
import { recordToJson } from '../http/record-json.ts';
import { userMetadata } from './crud.ts';
import { routerFor, type RouteTable } from './route.ts';

export const BPM_ROUTES = {
  branchesByPartner: { method: 'get', path: '/api/branch/by-partner/:id' },
} as const satisfies RouteTable;

/** GET /api/branch/by-partner/{id}: the branches of one business partner (decisions.md §4). */
export function bpmRoutes(backends: Backends): Router {
  return routerFor(BPM_ROUTES, {
    branchesByPartner: async (req, res) => {
      const response = await backends.call<{ branches: Record<string, unknown>[] }>(
        'bpm',
        branch.grpc,
        'listBranchesByPartner',
        { businessPartnerId: idParam(req.params.id) },
        userMetadata(req, res),
      );
      res.json(response.branches.map((record) => recordToJson(branch, record)));
    },
  });
}
