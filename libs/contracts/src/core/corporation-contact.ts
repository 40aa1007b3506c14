import { defineResource } from '@platform/kit/resource/resource.ts';
import { CorporationContactServiceService, CorporationContact } from '@platform/kit/gen/platform/core/v1/corporation_contact.ts';

/** A contact person of the corporation (the tenant itself). */
export const corporationContact = defineResource<CorporationContact>()({
  path: 'corporation-contact',
  name: 'CorporationContact',
  plural: 'CorporationContacts',
  service: 'core',
  grpc: CorporationContactServiceService,
  encoder: CorporationContact,
  operations: 'full',
  fields: {
    fullName: { kind: 'string', required: true, searchable: true },
    title: { kind: 'string' },
    email: { kind: 'string' },
    phone: { kind: 'string', maxLength: 32 },
    department: { kind: 'string', searchable: true },
  },
});
