import { defineResource } from '@platform/kit/resource/resource.ts';
import { CountryServiceService, Country } from '@platform/kit/gen/platform/core/v1/country.ts';

/** A country of a tenant's lookups: its ISO 3166-1 alpha-2 code, unique within the tenant. */
export const country = defineResource<Country>()({
  path: 'country',
  name: 'Country',
  plural: 'Countries',
  service: 'core',
  menu: { area: 'administration' },
  grpc: CountryServiceService,
  encoder: Country,
  operations: 'no-stats',
  fields: {
    code: {
      kind: 'string',
      required: true,
      maxLength: 2,
      pattern: '^[A-Z]{2}$',
      unique: 'tenant',
      searchable: true,
      doc: 'ISO 3166-1 alpha-2 code, unique within the tenant.',
    },
    name: { kind: 'string', required: true, searchable: true, doc: 'Name.' },
  },
  form: {
    sections: [{ title: { en: 'Country', tr: 'Ülke' }, fields: ['code', 'name', 'status'] }],
  },
  labels: {
    en: { one: 'Country', other: 'Countries', fields: { code: 'Country code', name: 'Name' }, help: { code: 'Two capital letters (ISO 3166), such as TR.' } },
    tr: { one: 'Ülke', other: 'Ülkeler', fields: { code: 'Ülke kodu', name: 'Ad' }, help: { code: 'İki büyük harf (ISO 3166), ör. TR.' } },
  },
  list: {
    columns: ['code', 'name', 'status'],
    filters: ['code', 'name'],
    match: { code: 'prefix', name: 'prefix' },
  },
});
