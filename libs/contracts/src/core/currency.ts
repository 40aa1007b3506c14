import { defineResource } from '@platform/kit/resource/resource.ts';
import { CurrencyServiceService, Currency } from '@platform/kit/gen/platform/core/v1/currency.ts';

/** A currency of a tenant's lookups: its ISO 4217 code, unique within the tenant. */
export const currency = defineResource<Currency>()({
  path: 'currency',
  name: 'Currency',
  plural: 'Currencies',
  service: 'core',
  menu: { area: 'administration' },
  grpc: CurrencyServiceService,
  encoder: Currency,
  operations: 'no-stats',
  fields: {
    code: {
      kind: 'string',
      required: true,
      maxLength: 3,
      pattern: '^[A-Z]{3}$',
      unique: 'tenant',
      searchable: true,
      doc: 'ISO 4217 code, unique within the tenant.',
    },
    name: { kind: 'string', required: true, searchable: true, doc: 'Name.' },
    symbol: { kind: 'string', maxLength: 8, doc: 'Symbol.' },
    fractionDigits: { kind: 'int', default: 2, min: 0, max: 4, doc: 'Digits after the decimal point (default 2).' },
  },
  form: {
    sections: [{ title: { en: 'Currency', tr: 'Para birimi' }, fields: ['code', 'name', 'symbol', 'fractionDigits', 'status'] }],
  },
  labels: {
    en: {
      one: 'Currency',
      other: 'Currencies',
      fields: { code: 'Currency code', name: 'Name', symbol: 'Symbol', fractionDigits: 'Decimal places' },
      help: { code: 'Three capital letters (ISO 4217), such as TRY.' },
    },
    tr: {
      one: 'Para birimi',
      other: 'Para birimleri',
      fields: { code: 'Para birimi kodu', name: 'Ad', symbol: 'Simge', fractionDigits: 'Ondalık basamak' },
      help: { code: 'Üç büyük harf (ISO 4217), ör. TRY.' },
    },
  },
  list: {
    columns: ['code', 'name', 'symbol', 'fractionDigits'],
    filters: ['code', 'name'],
    match: { code: 'prefix', name: 'prefix' },
  },
});
