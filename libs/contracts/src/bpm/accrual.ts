import { defineResource } from '@platform/kit/resource/resource.ts';
import { AccrualServiceService, Accrual } from '@platform/kit/gen/platform/bpm/v1/accrual.ts';
import { ACCRUAL_LIFECYCLE, ACCRUAL_STATES } from './accrual-moves.ts';

/**
 * An amount due under a contract for a period (docs/interface.md#records). A contract item, when named, must
 * be a line of the accrual's contract: a foreign key over (crProcessId, contractId, contractItemId).
 */
export const accrual = defineResource<Accrual>()({
  path: 'accrual',
  name: 'Accrual',
  plural: 'Accruals',
  service: 'bpm',
  menu: { area: 'contracts' },
  grpc: AccrualServiceService,
  encoder: Accrual,
  operations: 'full',
  fields: {
    contractId: { kind: 'long', required: true, references: 'contract', doc: 'The contract (same tenant).' },
    contractItemId: { kind: 'long', references: 'contract-item', within: 'contractId', doc: 'A line of that contract, when the accrual is for one.' },
    periodStart: { kind: 'date', required: true, doc: 'First day of the period, YYYY-MM-DD.' },
    periodEnd: { kind: 'date', required: true, notBefore: 'periodStart', doc: 'Last day of the period, YYYY-MM-DD; not before period_start.' },
    amount: { kind: 'decimal', required: true, doc: 'Amount, a decimal string.' },
    currencyCode: { kind: 'string', required: true, maxLength: 3, pattern: '^[A-Z]{3}$', doc: 'ISO 4217 code of the amount.' },
    // moved by the operations alone, never by a write (accrual-moves.ts)
    accrualStatus: {
      kind: 'enum',
      values: ACCRUAL_STATES,
      readOnly: true,
      default: ACCRUAL_LIFECYCLE.initial,
      doc: 'PENDING, APPROVED, INVOICED or CANCELLED; read-only (moved by the operations).',
    },
    approvedAt: { kind: 'datetime', readOnly: true, doc: 'When it was approved, ISO 8601 UTC; read-only.' },
    approvedBy: { kind: 'string', readOnly: true, doc: 'userCode of who approved it; read-only.' },
    invoicedAt: { kind: 'datetime', readOnly: true, doc: 'When it was invoiced, ISO 8601 UTC; read-only.' },
    invoiceNo: { kind: 'string', readOnly: true, maxLength: 64, doc: 'Invoice number given when invoiced; read-only.' },
    cancelledAt: { kind: 'datetime', readOnly: true, doc: 'When it was cancelled, ISO 8601 UTC; read-only.' },
    cancelReason: { kind: 'string', readOnly: true, maxLength: 1000, doc: 'Reason given when cancelled; read-only.' },
  },
  form: {
    sections: [
      { title: { en: 'Contract', tr: 'Sözleşme' }, fields: ['contractId', 'contractItemId', 'status'] },
      { title: { en: 'Period and amount', tr: 'Dönem ve tutar' }, fields: ['periodStart', 'periodEnd', 'amount', 'currencyCode'] },
      { title: { en: 'State', tr: 'Durum' }, fields: ['accrualStatus', 'approvedAt', 'approvedBy', 'invoicedAt', 'invoiceNo', 'cancelledAt', 'cancelReason'] },
    ],
  },
  labels: {
    en: {
      one: 'Accrual',
      other: 'Accruals',
      fields: {
        contractId: 'Contract',
        contractItemId: 'Contract item',
        periodStart: 'Period start',
        periodEnd: 'Period end',
        amount: 'Amount',
        currencyCode: 'Currency',
        accrualStatus: 'Accrual status',
        approvedAt: 'Approved',
        approvedBy: 'Approved by',
        invoicedAt: 'Invoiced',
        invoiceNo: 'Invoice number',
        cancelledAt: 'Cancelled',
        cancelReason: 'Reason for cancelling',
      },
      values: { accrualStatus: { PENDING: 'Pending', APPROVED: 'Approved', INVOICED: 'Invoiced', CANCELLED: 'Cancelled' } },
      help: {
        contractItemId: 'A line of the contract, when the accrual is for one.',
        accrualStatus: 'Changed by approving, invoicing or cancelling, never by editing.',
      },
    },
    tr: {
      one: 'Tahakkuk',
      other: 'Tahakkuklar',
      fields: {
        contractId: 'Sözleşme',
        contractItemId: 'Sözleşme kalemi',
        periodStart: 'Dönem başlangıcı',
        periodEnd: 'Dönem sonu',
        amount: 'Tutar',
        currencyCode: 'Para birimi',
        accrualStatus: 'Tahakkuk durumu',
        approvedAt: 'Onaylanma',
        approvedBy: 'Onaylayan',
        invoicedAt: 'Faturalanma',
        invoiceNo: 'Fatura numarası',
        cancelledAt: 'İptal edilme',
        cancelReason: 'İptal nedeni',
      },
      values: { accrualStatus: { PENDING: 'Beklemede', APPROVED: 'Onaylandı', INVOICED: 'Faturalandı', CANCELLED: 'İptal edildi' } },
      help: { contractItemId: 'Tahakkuk bir kaleme aitse sözleşmenin o kalemi.', accrualStatus: 'Düzenlemeyle değil; onay, faturalama ya da iptalle değişir.' },
    },
  },
  list: {
    columns: ['contractId', 'periodStart', 'periodEnd', 'amount', 'accrualStatus', 'invoiceNo'],
    filters: ['businessPartnerId', 'contractId', 'accrualStatus', 'periodStart', 'invoiceNo'],
    match: { invoiceNo: 'prefix' },
    money: { amount: 'currencyCode' },
    // a partner's accruals, through their contracts (docs/adr/0141-a-list-filters-through-a-reference.md)
    through: { businessPartnerId: { via: 'contractId' } },
  },
});
