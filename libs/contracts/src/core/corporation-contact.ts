import { defineResource } from '@platform/kit/resource/resource.ts';
import { CorporationContactServiceService, CorporationContact } from '@platform/kit/gen/platform/core/v1/corporation_contact.ts';

/** A contact person of the corporation (the tenant itself). */
export const corporationContact = defineResource<CorporationContact>()({
  path: 'corporation-contact',
  name: 'CorporationContact',
  plural: 'CorporationContacts',
  service: 'core',
  menu: { area: 'administration' },
  grpc: CorporationContactServiceService,
  encoder: CorporationContact,
  operations: 'full',
  fields: {
    fullName: { kind: 'string', required: true, searchable: true, doc: 'Full name.' },
    title: { kind: 'string', doc: 'Job title.' },
    email: { kind: 'string', doc: 'E-mail address.' },
    phone: { kind: 'string', maxLength: 32, doc: 'Phone number.' },
    department: { kind: 'string', searchable: true, doc: 'Department.' },
  },
  form: {
    sections: [
      { title: { en: 'Person', tr: 'Kişi' }, fields: ['fullName', 'title', 'department', 'status'] },
      { title: { en: 'Contact', tr: 'İletişim' }, fields: ['email', 'phone'] },
    ],
  },
  labels: {
    en: {
      one: 'Company contact',
      other: 'Company contacts',
      fields: { fullName: 'Full name', title: 'Job title', email: 'E-mail', phone: 'Phone', department: 'Department' },
    },
    tr: {
      one: 'Şirket kişisi',
      other: 'Şirket kişileri',
      fields: { fullName: 'Ad soyad', title: 'Unvan', email: 'E-posta', phone: 'Telefon', department: 'Departman' },
    },
  },
  list: {
    columns: ['fullName', 'title', 'department', 'email', 'phone'],
    filters: ['fullName', 'department', 'email'],
    match: { fullName: 'prefix', email: 'prefix' },
  },
});
