import { Router } from 'express';
import { branch } from '@platform/bpm-svc/resources/branch/branch.resource.ts';
import type { Backends } from '../backends.ts';
import { recordToJson } from '../http/record-json.ts';
import { idParam, userMetadata } from './crud.ts';

/** GET /api/branch/by-partner/{id}: the branches of one business partner (decisions.md §4). */
export function bpmRoutes(backends: Backends): Router {
  const router = Router({ caseSensitive: true });
  router.get('/api/branch/by-partner/:id', async (req, res) => {
    const response = await backends.call<{ branches: Record<string, unknown>[] }>(
      'bpm',
      branch.grpc,
      'listBranchesByPartner',
      { businessPartnerId: idParam(req.params.id) },
      userMetadata(req, res),
    );
    res.json(response.branches.map((record) => recordToJson(branch, record)));
  });
  return router;
}
