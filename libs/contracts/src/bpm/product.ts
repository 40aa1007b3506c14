import { defineResource } from '@platform/kit/resource/resource.ts';
import { ProductServiceService, Product } from '@platform/kit/gen/platform/bpm/v1/product.ts';

/** Something a tenant sells, with its list price (docs/interface.md#records). */
export const product = defineResource<Product>()({
  path: 'product',
  name: 'Product',
  plural: 'Products',
  service: 'bpm',
  menu: { area: 'contracts' },
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
  form: {
    sections: [
      { title: { en: 'Product', tr: 'Ürün' }, fields: ['productCode', 'productName', 'unit', 'status'] },
      { title: { en: 'Price', tr: 'Fiyat' }, fields: ['unitPrice', 'currencyCode', 'vatRate'] },
    ],
  },
  labels: {
    en: {
      one: 'Product',
      other: 'Products',
      fields: {
        productCode: 'Product code',
        productName: 'Product name',
        unit: 'Unit',
        unitPrice: 'Unit price',
        currencyCode: 'Currency',
        vatRate: 'VAT rate (%)',
      },
      help: { unit: 'The unit of measure, such as piece or hour.' },
    },
    tr: {
      one: 'Ürün',
      other: 'Ürünler',
      fields: {
        productCode: 'Ürün kodu',
        productName: 'Ürün adı',
        unit: 'Birim',
        unitPrice: 'Birim fiyat',
        currencyCode: 'Para birimi',
        vatRate: 'KDV oranı (%)',
      },
      help: { unit: 'Ölçü birimi, ör. adet ya da saat.' },
    },
  },
  list: {
    columns: ['productCode', 'productName', 'unit', 'unitPrice', 'vatRate', 'status'],
    filters: ['productCode', 'productName', 'status'],
    match: { productCode: 'prefix', productName: 'contains' },
    money: { unitPrice: 'currencyCode' },
  },
});
