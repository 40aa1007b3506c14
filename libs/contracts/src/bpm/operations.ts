import type { SchemaObject } from 'openapi3-ts/oas31';
import { AccrualServiceService } from '@platform/kit/gen/platform/bpm/v1/accrual.ts';
import { BranchServiceService } from '@platform/kit/gen/platform/bpm/v1/branch.ts';
import { apiFields, isScalar } from '@platform/kit/resource/resource.ts';
import { rpcOperation, type DocSources, type OperationDoc, type OperationTable } from '../operation.ts';
import { accrual } from './accrual.ts';
import { ACCRUAL_MOVES, ACCRUAL_STATES, recordedFields, type AccrualMove, type AccrualMoveDeclaration } from './accrual-moves.ts';
import { branch } from './branch.ts';

const ID = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/**
 * An accrual move's entry (docs/interface.md#accrual-moves), worded from its declaration
 * (accrual-moves.ts): the states it leaves and reaches, its role, what it records, the optional
 * body of the field it takes; it answers the moved accrual, 409 for any other move.
 */
function accrualMove(name: AccrualMove) {
  const move: AccrualMoveDeclaration = ACCRUAL_MOVES[name];
  const given = move.given;
  const records = recordedFields(move).map((field) =>
    field === given?.field ? (given.param === field ? `the ${field} given` : `the ${given.param} given as ${field}`) : field,
  );
  const recorded = records.length > 1 ? `${records.slice(0, -1).join(', ')} and ${records.at(-1)}` : records.join('');
  return (sources: DocSources): OperationDoc => ({
    tag: accrual.path,
    summary: `${name[0]!.toUpperCase()}${name.slice(1)} an accrual: ${move.from.join(' or ')} to ${move.to}`,
    description: `Moves an accrual from ${move.from.join(' or ')} to ${move.to}. Needs ${move.role}; records ${recorded}. Any other move is 409 SVC-SYS-4004; another tenant's accrual is 404.`,
    pathParams: { id: { ...ID, description: "The accrual's id." } },
    ...(given
      ? {
          body: {
            schema: {
              type: 'object',
              additionalProperties: false,
              properties: { [given.param]: { type: ['string', 'null'], maxLength: maxLengthOf(given.field), description: given.description } },
            },
            optional: true,
          },
        }
      : {}),
    ok: { status: 200, schema: sources.record(accrual), description: 'The accrual in its new state, its version raised.' },
    errors: [409],
  });
}

/** The maxLength an accrual field declares (a move's given text is checked as the field it is kept in). */
function maxLengthOf(field: string): number | undefined {
  const spec = apiFields(accrual)[field];
  return spec && isScalar(spec) ? spec.maxLength : undefined;
}

/**
 * The partner-management service's operations beyond the CRUD sets: the branches of one business
 * partner, and the accrual's moves (docs/interface.md#accrual-moves), each answering the accrual.
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
    doc: accrualMove('approve'),
  }),
  invoiceAccrual: rpcOperation({
    method: 'post',
    path: '/api/accrual/:id/invoice',
    rpc: { service: 'bpm', method: AccrualServiceService.invoiceAccrual, retry: 'write' },
    doc: accrualMove('invoice'),
  }),
  cancelAccrual: rpcOperation({
    method: 'post',
    path: '/api/accrual/:id/cancel',
    rpc: { service: 'bpm', method: AccrualServiceService.cancelAccrual, retry: 'write' },
    doc: accrualMove('cancel'),
  }),
  accrualSummary: rpcOperation({
    method: 'get',
    path: '/api/accrual/summary',
    query: { crProcessId: 'id', from: 'text', to: 'text' },
    rpc: { service: 'bpm', method: AccrualServiceService.getAccrualSummary, retry: 'read' },
    doc: (sources) => ({
      tag: accrual.path,
      summary: "A tenant's accruals by state and by month",
      description:
        `${sources.rpc ?? ''} Needs accrual:read; crProcessId is required (400 SVC-SYS-2002); from and to (YYYY-MM-DD) bound periodStart, both included.`.trim(),
      ok: { status: 200, schema: summarySchema(sources), description: 'Counts and amounts per state and per month, each per currency.' },
    }),
  }),
} as const satisfies OperationTable;

const SUMMARY = 'platform.bpm.v1.AccrualSummary';
const STATE_TOTAL = 'platform.bpm.v1.AccrualStateTotal';
const MONTH_TOTAL = 'platform.bpm.v1.AccrualMonthTotal';

/** The answer of GET /api/accrual/summary, its words from the proto's comments. */
function summarySchema(sources: DocSources): SchemaObject {
  const total = (message: string, first: string, firstSchema: SchemaObject): SchemaObject => ({
    type: 'object',
    additionalProperties: false,
    properties: {
      [first]: { ...firstSchema, description: sources.field(message, first) },
      currencyCode: { type: 'string', description: sources.field(message, 'currencyCode') },
      count: { type: 'integer', format: 'int64', minimum: 1, description: sources.field(message, 'count') },
      amount: { type: 'string', description: sources.field(message, 'amount') },
    },
    required: [first, 'currencyCode', 'count', 'amount'],
  });
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      states: {
        type: 'array',
        items: total(STATE_TOTAL, 'accrualStatus', { type: 'string', enum: [...ACCRUAL_STATES] }),
        description: sources.field(SUMMARY, 'states'),
      },
      months: {
        type: 'array',
        items: total(MONTH_TOTAL, 'month', { type: 'string', pattern: '^\\d{4}-\\d{2}$' }),
        description: sources.field(SUMMARY, 'months'),
      },
    },
    required: ['states', 'months'],
  };
}
