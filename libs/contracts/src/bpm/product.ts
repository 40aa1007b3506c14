import { defineResource } from '@platform/kit/resource/resource.ts';
import { ProductServiceService, Product } from '@platform/kit/gen/platform/bpm/v1/product.ts';

/** Something a tenant sells, with its list price (docs/interface.md#records). */
export const product = defineResource<Product>()({
  path: 'product',
  name: 'Product',
  plural: 'Products',
  service: 'bpm',
  menu: { area: 'contracts', label: { en: 'Products', tr: 'Ürünler' } },
  grpc: ProductServiceService,
  encoder: Product,
  operations: 'full',
  fields: {
    productCode: { kind: 'string', required: true, maxLength: 64, unique: 'tenant', searchable: true, doc: 'Code, unique within the tenant.' },
    productName: { kind: 'string', required: true, searchable: true, doc: 'Name.' },
    unit: { kind: 'string', maxLength: 32, doc: 'Unit of measure.' },
    unitPrice: { kind: 'decimal', required: true, min: 0, doc: 'List price, a decimal string with up to 4 decimals.' },
    currencyCode: { kind: 'string', required: true, maxLength: 3, pattern: '^[A-Z]{3}$', doc: 'ISO 4217 code of the price.' },
    vatRate: { kind: 'decimal', min: 0, max: 100, doc: 'VAT rate in percent, a decimal string.' },
  },
  list: {
    columns: ['productCode', 'productName', 'unit', 'unitPrice', 'vatRate', 'status'],
    filters: ['productCode', 'productName', 'status'],
    match: { productCode: 'prefix', productName: 'contains' },
    money: { unitPrice: 'currencyCode' },
  },
});
