import { defineResource } from '@platform/kit/resource/resource.ts';
import { ProductServiceService, Product } from '@platform/kit/gen/platform/bpm/v1/product.ts';

/** Something a tenant sells, with its list price (docs/interface.md#records). */
export const product = defineResource<Product>()({
  path: 'product',
  name: 'Product',
  plural: 'Products',
  service: 'bpm',
  grpc: ProductServiceService,
  encoder: Product,
  operations: 'full',
  fields: {
    productCode: { kind: 'string', required: true, maxLength: 64, unique: 'tenant', searchable: true },
    productName: { kind: 'string', required: true, searchable: true },
    unit: { kind: 'string', maxLength: 32 },
    unitPrice: { kind: 'decimal', required: true, min: 0 },
    currencyCode: { kind: 'string', required: true, maxLength: 3, pattern: '^[A-Z]{3}$' },
    vatRate: { kind: 'decimal', min: 0, max: 100 },
  },
});
