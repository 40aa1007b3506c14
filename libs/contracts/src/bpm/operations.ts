import type { SchemaObject } from 'openapi3-ts/oas31';
import { AccrualServiceService } from '@platform/libs/gen/platform/bpm/v1/accrual.ts';
import { BranchServiceService } from '@platform/libs/gen/platform/bpm/v1/branch.ts';
import { rpcOperation, type DocSources, type OperationDoc, type OperationTable } from '../operation.ts';
import { accrual } from './accrual.ts';
import { branch } from './branch.ts';

const ID = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** An accrual move (docs/interface.md#partner-operations): an optional body of `fields`, the moved accrual, 409 for any other move. */
function accrualMove(summary: string, note: string, fields?: Record<string, SchemaObject>) {
  return (sources: DocSources): OperationDoc => ({
    tag: accrual.path,
    summary,
    description: `${sources.rpc ?? ''} ${note} Any other move is 409 SVC-SYS-4004; another tenant's accrual is 404.`.trim(),
    pathParams: { id: { ...ID, description: "The accrual's id." } },
    ...(fields ? { body: { schema: { type: 'object', additionalProperties: false, properties: fields }, optional: true } } : {}),
    ok: { status: 200, schema: sources.record(accrual), description: 'The accrual in its new state, its version raised.' },
    errors: [409],
  });
}

/**
 * The partner-management service's operations beyond the CRUD sets: the branches of one business
 * partner, and the accrual's moves (docs/interface.md#partner-operations), each answering the accrual.
 */
export const BPM_OPERATIONS = {
  branchesByPartner: rpcOperation({
    method: 'get',
    path: '/api/branch/by-partner/:id',
    rpc: { service: 'bpm', method: BranchServiceService.listBranchesByPartner, retry: 'read' },
    doc: (sources) => ({
      tag: branch.path,
      summary: 'The branches of one business partner',
      description: sources.rpc,
      pathParams: { id: { ...ID, description: "The business partner's id." } },
      ok: { status: 200, schema: { type: 'array', items: sources.record(branch) }, description: 'The branches, by id.' },
    }),
  }),
  approveAccrual: rpcOperation({
    method: 'post',
    path: '/api/accrual/:id/approve',
    rpc: { service: 'bpm', method: AccrualServiceService.approveAccrual, retry: 'write' },
    doc: accrualMove('Approve an accrual: PENDING to APPROVED', 'Needs accrual:approve; records approvedAt and approvedBy.'),
  }),
  invoiceAccrual: rpcOperation({
    method: 'post',
    path: '/api/accrual/:id/invoice',
    rpc: { service: 'bpm', method: AccrualServiceService.invoiceAccrual, retry: 'write' },
    doc: accrualMove('Mark an accrual as invoiced: APPROVED to INVOICED', 'Needs accrual:invoice; records invoicedAt and the invoiceNo given.', {
      invoiceNo: { type: ['string', 'null'], maxLength: 64, description: 'Invoice number to record.' },
    }),
  }),
  cancelAccrual: rpcOperation({
    method: 'post',
    path: '/api/accrual/:id/cancel',
    rpc: { service: 'bpm', method: AccrualServiceService.cancelAccrual, retry: 'write' },
    doc: accrualMove('Cancel an accrual: PENDING or APPROVED to CANCELLED', 'Needs accrual:cancel; records cancelledAt and the reason given as cancelReason.', {
      reason: { type: ['string', 'null'], maxLength: 1000, description: 'Reason to record.' },
    }),
  }),
} as const satisfies OperationTable;
