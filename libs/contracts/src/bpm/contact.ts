import { defineResource } from '@platform/kit/resource/resource.ts';
import { ContactServiceService, Contact } from '@platform/kit/gen/platform/bpm/v1/contact.ts';

/**
 * A person at a business partner, or at one of its branches (docs/interface.md#records). The branch must be
 * one of the contact's partner: a foreign key over (crProcessId, businessPartnerId, branchId).
 */
export const contact = defineResource<Contact>()({
  path: 'contact',
  name: 'Contact',
  plural: 'Contacts',
  service: 'bpm',
  menu: { area: 'partners' },
  grpc: ContactServiceService,
  encoder: Contact,
  operations: 'full',
  fields: {
    businessPartnerId: { kind: 'long', required: true, references: 'business-partner', doc: 'The business partner (same tenant).' },
    branchId: { kind: 'long', references: 'branch', within: 'businessPartnerId', doc: 'A branch of that partner, when the contact works at one.' },
    firstName: { kind: 'string', required: true, searchable: true, doc: 'First name.' },
    lastName: { kind: 'string', required: true, searchable: true, doc: 'Last name.' },
    email: { kind: 'string', doc: 'E-mail address.' },
    phone: { kind: 'string', maxLength: 32, doc: 'Phone number.' },
    title: { kind: 'string', doc: 'Job title.' },
  },
  form: {
    sections: [
      { title: { en: 'Person', tr: 'Kişi' }, fields: ['firstName', 'lastName', 'title', 'status'] },
      { title: { en: 'Works at', tr: 'Çalıştığı yer' }, fields: ['businessPartnerId', 'branchId'] },
      { title: { en: 'Contact', tr: 'İletişim' }, fields: ['email', 'phone'] },
    ],
  },
  labels: {
    en: {
      one: 'Contact',
      other: 'Contacts',
      fields: {
        businessPartnerId: 'Business partner',
        branchId: 'Branch',
        firstName: 'First name',
        lastName: 'Last name',
        email: 'E-mail',
        phone: 'Phone',
        title: 'Job title',
      },
      help: { branchId: "The partner's branch the contact works at, if any." },
    },
    tr: {
      one: 'İlgili kişi',
      other: 'İlgili kişiler',
      fields: { businessPartnerId: 'İş ortağı', branchId: 'Şube', firstName: 'Ad', lastName: 'Soyad', email: 'E-posta', phone: 'Telefon', title: 'Unvan' },
      help: { branchId: 'Kişi ortağın bir şubesinde çalışıyorsa o şube.' },
    },
  },
  list: {
    columns: ['firstName', 'lastName', 'businessPartnerId', 'email', 'phone', 'title'],
    filters: ['lastName', 'firstName', 'businessPartnerId', 'email'],
    match: { lastName: 'contains', firstName: 'contains', email: 'prefix' },
  },
});
