import { defineResource } from '@platform/kit/resource/resource.ts';
import { BusinessPartnerServiceService, BusinessPartner } from '@platform/kit/gen/platform/bpm/v1/business_partner.ts';

/** A customer or supplier of the tenant (docs/interface.md#records). */
export const businessPartner = defineResource<BusinessPartner>()({
  path: 'business-partner',
  name: 'BusinessPartner',
  plural: 'BusinessPartners',
  service: 'bpm',
  menu: { area: 'partners' },
  grpc: BusinessPartnerServiceService,
  encoder: BusinessPartner,
  operations: 'full',
  fields: {
    partnerCode: { kind: 'string', required: true, maxLength: 64, unique: 'tenant', searchable: true, doc: 'Unique per tenant.' },
    partnerName: { kind: 'string', required: true, searchable: true, doc: 'Display name.' },
    partnerType: { kind: 'enum', required: true, values: ['CUSTOMER', 'SUPPLIER', 'BOTH'], doc: 'CUSTOMER, SUPPLIER or BOTH.' },
    taxNumber: { kind: 'string', maxLength: 32, doc: 'Tax number.' },
    email: { kind: 'string', doc: 'E-mail address.' },
    phone: { kind: 'string', maxLength: 32, doc: 'Phone number.' },
    // core's records (another schema of the same database), kept by keys that cross the schemas;
    // a city must be one of the partner's country (docs/adr/0013-one-database-one-schema-per-service.md)
    // no related list on a country's or city's page: one may name most of a tenant's million
    // partners, counted on every visit; the partners list filtered by it serves that
    countryId: {
      kind: 'long',
      min: 1,
      references: 'country',
      referencesService: 'core',
      noRelatedList: "may name most of the tenant's partners: the partners list filtered by country",
      doc: 'Country (core).',
    },
    cityId: {
      kind: 'long',
      min: 1,
      references: 'city',
      referencesService: 'core',
      within: 'countryId',
      noRelatedList: "may name most of the tenant's partners: the partners list filtered by city",
      doc: 'City (core).',
    },
    address: { kind: 'string', maxLength: 1000, doc: 'Postal address.' },
  },
  // A tenant holds up to millions of partners (bench/list-scale.ts): the list sorted by name, the
  // filters by type and by creation time, and searchTerm are served by indexes, and the
  // unfiltered totalElements by the per-tenant count (docs/adr/0040-lists-at-scale-the-unfiltered-count.md).
  listIndexes: [['partnerName', 'id'], ['partnerType'], ['createdAt']],
  searchIndex: true,
  tenantCount: true,
  form: {
    sections: [
      { title: { en: 'Identity', tr: 'Kimlik' }, fields: ['partnerCode', 'partnerName', 'partnerType', 'taxNumber', 'status'] },
      { title: { en: 'Contact', tr: 'İletişim' }, fields: ['email', 'phone', 'address'] },
      { title: { en: 'Location', tr: 'Konum' }, fields: ['countryId', 'cityId'] },
    ],
  },
  labels: {
    en: {
      one: 'Business partner',
      other: 'Business partners',
      fields: {
        partnerCode: 'Partner code',
        partnerName: 'Partner name',
        partnerType: 'Partner type',
        taxNumber: 'Tax number',
        email: 'E-mail',
        phone: 'Phone',
        countryId: 'Country',
        cityId: 'City',
        address: 'Address',
      },
      values: { partnerType: { CUSTOMER: 'Customer', SUPPLIER: 'Supplier', BOTH: 'Customer and supplier' } },
      help: { partnerCode: 'A short code no other partner of the tenant has.', cityId: "A city of the partner's country." },
    },
    tr: {
      one: 'İş ortağı',
      other: 'İş ortakları',
      fields: {
        partnerCode: 'Ortak kodu',
        partnerName: 'Ortak adı',
        partnerType: 'Ortak türü',
        taxNumber: 'Vergi numarası',
        email: 'E-posta',
        phone: 'Telefon',
        countryId: 'Ülke',
        cityId: 'Şehir',
        address: 'Adres',
      },
      values: { partnerType: { CUSTOMER: 'Müşteri', SUPPLIER: 'Tedarikçi', BOTH: 'Her ikisi' } },
      help: { partnerCode: 'Kiracının başka hiçbir ortağında olmayan kısa bir kod.', cityId: 'Ortağın ülkesindeki bir şehir.' },
    },
  },
  list: {
    columns: ['partnerCode', 'partnerName', 'partnerType', 'taxNumber', 'status'],
    filters: ['partnerCode', 'partnerName', 'partnerType', 'taxNumber', 'status'],
    match: { partnerCode: 'prefix', taxNumber: 'prefix', partnerName: 'contains' },
  },
});
