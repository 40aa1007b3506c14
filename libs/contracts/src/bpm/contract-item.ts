import { defineResource } from '@platform/kit/resource/resource.ts';
import { ContractItemServiceService, ContractItem } from '@platform/kit/gen/platform/bpm/v1/contract_item.ts';

/**
 * A line of a contract: a product, a quantity and a price (docs/interface.md#records). lineTotal is computed
 * by PostgreSQL (a stored generated column), exactly, rounded to money's 4 decimals.
 */
export const contractItem = defineResource<ContractItem>()({
  path: 'contract-item',
  name: 'ContractItem',
  plural: 'ContractItems',
  service: 'bpm',
  menu: { area: 'contracts' },
  grpc: ContractItemServiceService,
  encoder: ContractItem,
  operations: 'no-stats',
  fields: {
    contractId: { kind: 'long', required: true, references: 'contract', doc: 'The contract (same tenant).' },
    productId: { kind: 'long', required: true, references: 'product', doc: 'The product (same tenant).' },
    // "> 0": decimals carry at most 4 decimals, so the smallest positive one is 0.0001
    quantity: { kind: 'decimal', required: true, min: 0.0001, doc: 'Quantity, a decimal string.' },
    unitPrice: { kind: 'decimal', required: true, min: 0, doc: 'Price of one unit, a decimal string.' },
    description: { kind: 'string', maxLength: 1000, searchable: true, doc: 'Description.' },
    lineTotal: { kind: 'decimal', readOnly: true, generated: 'quantity * unit_price', doc: 'quantity x unit_price, exact; read-only.' },
  },
  form: {
    sections: [
      { title: { en: 'Item', tr: 'Kalem' }, fields: ['contractId', 'productId', 'description', 'status'] },
      { title: { en: 'Price', tr: 'Fiyat' }, fields: ['quantity', 'unitPrice', 'lineTotal'] },
    ],
  },
  labels: {
    en: {
      one: 'Contract item',
      other: 'Contract items',
      fields: {
        contractId: 'Contract',
        productId: 'Product',
        quantity: 'Quantity',
        unitPrice: 'Unit price',
        description: 'Description',
        lineTotal: 'Line total',
      },
      help: { lineTotal: 'Quantity × unit price, worked out when saved.' },
    },
    tr: {
      one: 'Sözleşme kalemi',
      other: 'Sözleşme kalemleri',
      fields: { contractId: 'Sözleşme', productId: 'Ürün', quantity: 'Miktar', unitPrice: 'Birim fiyat', description: 'Açıklama', lineTotal: 'Satır toplamı' },
      help: { lineTotal: 'Miktar × birim fiyat; kaydedilince hesaplanır.' },
    },
  },
  list: {
    columns: ['contractId', 'productId', 'quantity', 'unitPrice', 'lineTotal', 'description'],
    filters: ['contractId', 'productId'],
  },
});
