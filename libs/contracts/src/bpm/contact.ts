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
  menu: { area: 'partners', label: { en: 'Contacts', tr: 'Kişiler' } },
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
  list: {
    columns: ['firstName', 'lastName', 'businessPartnerId', 'email', 'phone', 'title'],
    filters: ['lastName', 'firstName', 'businessPartnerId', 'email'],
    match: { lastName: 'contains', firstName: 'contains', email: 'prefix' },
  },
});
