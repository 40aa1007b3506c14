import { defineResource } from '@platform/kit/resource/resource.ts';
import { ContractServiceService, Contract } from '@platform/kit/gen/platform/bpm/v1/contract.ts';

/** The billing periods of a contract (docs/interface.md#records). */
export const BILLING_PERIODS = ['ONE_TIME', 'MONTHLY', 'QUARTERLY', 'YEARLY'] as const;

/** An agreement with a business partner over a period (docs/interface.md#records); endDate is kept by a check. */
export const contract = defineResource<Contract>()({
  path: 'contract',
  name: 'Contract',
  plural: 'Contracts',
  service: 'bpm',
  menu: { area: 'contracts', label: { en: 'Contracts', tr: 'Sözleşmeler' } },
  grpc: ContractServiceService,
  encoder: Contract,
  operations: 'full',
  fields: {
    contractNo: { kind: 'string', required: true, maxLength: 64, unique: 'tenant', searchable: true, doc: 'Number, unique within the tenant.' },
    businessPartnerId: { kind: 'long', required: true, references: 'business-partner', doc: 'The business partner (same tenant).' },
    startDate: { kind: 'date', required: true, doc: 'First day, YYYY-MM-DD.' },
    endDate: { kind: 'date', notBefore: 'startDate', doc: 'Last day, YYYY-MM-DD; not before start_date.' },
    currencyCode: { kind: 'string', required: true, maxLength: 3, pattern: '^[A-Z]{3}$', doc: 'ISO 4217 code of its amounts.' },
    billingPeriod: { kind: 'enum', required: true, values: BILLING_PERIODS, doc: 'ONE_TIME, MONTHLY, QUARTERLY or YEARLY.' },
    totalAmount: { kind: 'decimal', min: 0, doc: 'Total, a decimal string.' },
    description: { kind: 'text', searchable: true, doc: 'Description.' },
  },
  list: {
    columns: ['contractNo', 'businessPartnerId', 'startDate', 'endDate', 'totalAmount', 'billingPeriod', 'status'],
    filters: ['contractNo', 'businessPartnerId', 'startDate', 'billingPeriod', 'status'],
    match: { contractNo: 'prefix' },
    money: { totalAmount: 'currencyCode' },
  },
});
