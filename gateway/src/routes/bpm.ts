import type { Request, Response } from 'express';
import { accrual } from '@platform/contracts/bpm/accrual.ts';
import { ACCRUAL_MOVES, type AccrualMoveDeclaration } from '@platform/contracts/bpm/accrual-moves.ts';
import { branch } from '@platform/contracts/bpm/branch.ts';
import { BPM_OPERATIONS } from '@platform/contracts/bpm/operations.ts';
import type { OperationRpc } from '@platform/contracts/operation.ts';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import type { Accrual } from '@platform/kit/gen/platform/bpm/v1/accrual.ts';
import type { Backends } from '../backends.ts';
import { idParam } from '../http/params.ts';
import { asObject, recordToJson } from '../http/record-json.ts';
import { userMetadata } from './crud.ts';
import { callRpc } from './call-rpc.ts';
import { routerFor, type RouteGroup } from './route.ts';

/** The routes of the partner-management operations, as declared (libs/contracts/src/bpm/operations.ts). */
export const BPM_ROUTES = BPM_OPERATIONS;

/**
 * GET /api/branch/by-partner/{id}: the branches of one business partner; POST
 * /api/accrual/{id}/approve | invoice | cancel: the accrual's moves (docs/interface.md#accrual-moves), each
 * answering the accrual; GET /api/accrual/summary: a tenant's accruals by state and month.
 */
export function bpmRoutes(backends: Backends): RouteGroup {
  const moveAccrual = async <Req>(req: Request, res: Response, rpc: Pick<OperationRpc<Req, Accrual>, 'service' | 'method'>, request: Req) => {
    const moved = await callRpc(backends, rpc, request, userMetadata(req, res));
    res.json(recordToJson(accrual, moved));
  };
  const { branchesByPartner, approveAccrual, invoiceAccrual, cancelAccrual, accrualSummary } = BPM_OPERATIONS;
  return routerFor(BPM_ROUTES, {
    branchesByPartner: async (req, res) => {
      const response = await callRpc(backends, branchesByPartner.rpc, { businessPartnerId: idParam(req.params.id) }, userMetadata(req, res));
      res.json(response.branches.map((record) => recordToJson(branch, record)));
    },
    approveAccrual: async (req, res) => {
      givenText(req.body, ACCRUAL_MOVES.approve);
      await moveAccrual(req, res, approveAccrual.rpc, { id: idParam(req.params.id) });
    },
    invoiceAccrual: async (req, res) => {
      const invoiceNo = givenText(req.body, ACCRUAL_MOVES.invoice);
      await moveAccrual(req, res, invoiceAccrual.rpc, { id: idParam(req.params.id), ...(invoiceNo === undefined ? {} : { invoiceNo }) });
    },
    cancelAccrual: async (req, res) => {
      const reason = givenText(req.body, ACCRUAL_MOVES.cancel);
      await moveAccrual(req, res, cancelAccrual.rpc, { id: idParam(req.params.id), ...(reason === undefined ? {} : { reason }) });
    },
    // the dashboard's figures, summed by the service (accrual:read); a missing crProcessId is 400
    // SVC-SYS-2002, as for a list
    accrualSummary: async (req, res, query) => {
      if (query.crProcessId === undefined) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
      const request = {
        crProcessId: query.crProcessId,
        ...(query.from === undefined ? {} : { from: query.from }),
        ...(query.to === undefined ? {} : { to: query.to }),
      };
      const summary = await callRpc(backends, accrualSummary.rpc, request, userMetadata(req, res));
      res.json({ states: summary.states, months: summary.months });
    },
  });
}

/** The text a move's optional body gives in the one field its declaration names (none for a move that takes none). */
function givenText(body: unknown, move: AccrualMoveDeclaration): string | undefined {
  const param = move.given?.param;
  const fields = optionalText(body, param === undefined ? [] : [param]);
  return param === undefined ? undefined : fields[param];
}

/**
 * An optional JSON body holding at most the named string fields (`null` as absent); any other
 * field is 400 SVC-SYS-2001 naming it. The service checks the strings' lengths.
 */
function optionalText(body: unknown, names: readonly string[]): Record<string, string | undefined> {
  const fields: Record<string, string | undefined> = {};
  if (body === undefined) return fields;
  for (const [name, value] of Object.entries(asObject(body))) {
    if (!names.includes(name)) throw invalidField(name, 'field.unknown');
    if (value === null) continue;
    if (typeof value !== 'string') throw invalidField(name, 'field.type', { type: 'string' });
    fields[name] = value;
  }
  return fields;
}
