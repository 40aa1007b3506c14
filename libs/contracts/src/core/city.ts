import { defineResource } from '@platform/kit/resource/resource.ts';
import { CityServiceService, City } from '@platform/kit/gen/platform/core/v1/city.ts';

/** A city of a country of the same tenant. */
export const city = defineResource<City>()({
  path: 'city',
  name: 'City',
  plural: 'Cities',
  service: 'core',
  menu: { area: 'administration' },
  grpc: CityServiceService,
  encoder: City,
  operations: 'no-stats',
  fields: {
    countryId: { kind: 'long', required: true, references: 'country', doc: 'The country (same tenant).' },
    name: { kind: 'string', required: true, searchable: true, doc: 'Name.' },
    code: { kind: 'string', maxLength: 16, searchable: true, doc: 'Code, e.g. a plate or postal prefix.' },
  },
  // (crProcessId, countryId, id): what bpm's business-partner.cityId names, a city within the
  // partner's country of its tenant (a key from another schema, so not derived from a reference here)
  uniques: [['countryId', 'id']],
  form: {
    sections: [{ title: { en: 'City', tr: 'Şehir' }, fields: ['countryId', 'code', 'name', 'status'] }],
  },
  labels: {
    en: {
      one: 'City',
      other: 'Cities',
      fields: { countryId: 'Country', name: 'Name', code: 'City code' },
      help: { code: 'A plate or postal prefix, for instance.' },
    },
    tr: {
      one: 'Şehir',
      other: 'Şehirler',
      fields: { countryId: 'Ülke', name: 'Ad', code: 'Şehir kodu' },
      help: { code: 'Örneğin plaka kodu ya da posta kodu öneki.' },
    },
  },
  list: {
    columns: ['code', 'name', 'countryId', 'status'],
    filters: ['name', 'code', 'countryId'],
    match: { code: 'prefix', name: 'prefix' },
  },
});
