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
  menu: { area: 'contracts' },
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
  form: {
    sections: [
      { title: { en: 'Contract', tr: 'Sözleşme' }, fields: ['contractNo', 'businessPartnerId', 'description', 'status'] },
      { title: { en: 'Term', tr: 'Süre' }, fields: ['startDate', 'endDate', 'billingPeriod'] },
      { title: { en: 'Amount', tr: 'Tutar' }, fields: ['totalAmount', 'currencyCode'] },
    ],
  },
  labels: {
    en: {
      one: 'Contract',
      other: 'Contracts',
      fields: {
        contractNo: 'Contract number',
        businessPartnerId: 'Business partner',
        startDate: 'Start date',
        endDate: 'End date',
        currencyCode: 'Currency',
        billingPeriod: 'Billing period',
        totalAmount: 'Total amount',
        description: 'Description',
      },
      values: { billingPeriod: { ONE_TIME: 'One-time', MONTHLY: 'Monthly', QUARTERLY: 'Quarterly', YEARLY: 'Yearly' } },
      help: { endDate: 'Left empty, the contract has no end.' },
    },
    tr: {
      one: 'Sözleşme',
      other: 'Sözleşmeler',
      fields: {
        contractNo: 'Sözleşme numarası',
        businessPartnerId: 'İş ortağı',
        startDate: 'Başlangıç tarihi',
        endDate: 'Bitiş tarihi',
        currencyCode: 'Para birimi',
        billingPeriod: 'Faturalama dönemi',
        totalAmount: 'Toplam tutar',
        description: 'Açıklama',
      },
      values: { billingPeriod: { ONE_TIME: 'Tek seferlik', MONTHLY: 'Aylık', QUARTERLY: 'Üç aylık', YEARLY: 'Yıllık' } },
      help: { endDate: 'Boş bırakılırsa sözleşme süresizdir.' },
    },
  },
  list: {
    columns: ['contractNo', 'businessPartnerId', 'startDate', 'endDate', 'totalAmount', 'billingPeriod', 'status'],
    filters: ['contractNo', 'businessPartnerId', 'startDate', 'billingPeriod', 'status'],
    match: { contractNo: 'prefix' },
    money: { totalAmount: 'currencyCode' },
  },
});
