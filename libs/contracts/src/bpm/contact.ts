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
  grpc: ContactServiceService,
  encoder: Contact,
  operations: 'full',
  fields: {
    businessPartnerId: { kind: 'long', required: true, references: 'business-partner' },
    branchId: { kind: 'long', references: 'branch', within: 'businessPartnerId' },
    firstName: { kind: 'string', required: true, searchable: true },
    lastName: { kind: 'string', required: true, searchable: true },
    email: { kind: 'string' },
    phone: { kind: 'string', maxLength: 32 },
    title: { kind: 'string' },
  },
});
