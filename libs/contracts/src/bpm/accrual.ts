import { defineResource } from '@platform/kit/resource/resource.ts';
import { AccrualServiceService, Accrual } from '@platform/kit/gen/platform/bpm/v1/accrual.ts';

/** The states of an accrual (docs/interface.md#partner-operations); the operations move it, never a write. */
export const ACCRUAL_STATES = ['PENDING', 'APPROVED', 'INVOICED', 'CANCELLED'] as const;
export type AccrualState = (typeof ACCRUAL_STATES)[number];

/**
 * An amount due under a contract for a period (docs/interface.md#records). A contract item, when named, must
 * be a line of the accrual's contract: a foreign key over (crProcessId, contractId, contractItemId).
 */
export const accrual = defineResource<Accrual>()({
  path: 'accrual',
  name: 'Accrual',
  plural: 'Accruals',
  service: 'bpm',
  grpc: AccrualServiceService,
  encoder: Accrual,
  operations: 'full',
  fields: {
    contractId: { kind: 'long', required: true, references: 'contract' },
    contractItemId: { kind: 'long', references: 'contract-item', within: 'contractId' },
    periodStart: { kind: 'date', required: true },
    periodEnd: { kind: 'date', required: true, notBefore: 'periodStart' },
    amount: { kind: 'decimal', required: true },
    currencyCode: { kind: 'string', required: true, maxLength: 3, pattern: '^[A-Z]{3}$' },
    accrualStatus: { kind: 'enum', values: ACCRUAL_STATES, readOnly: true, default: 'PENDING' },
    approvedAt: { kind: 'datetime', readOnly: true },
    approvedBy: { kind: 'string', readOnly: true },
    invoicedAt: { kind: 'datetime', readOnly: true },
    invoiceNo: { kind: 'string', readOnly: true, maxLength: 64 },
    cancelledAt: { kind: 'datetime', readOnly: true },
    cancelReason: { kind: 'string', readOnly: true, maxLength: 1000 },
  },
});
