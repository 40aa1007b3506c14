/**
 * Every entity of the interface's tables is registered, with the set the interface gives it
 * (docs/interface.md#entities, quoted below), so each answers its set through the gateway (the CRUD,
 * role and cross-tenant walks run over the registry).
 */
import test from 'ava';
import type { OperationSet } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';

// | core | account | full set incl. stats |
// | core | user-info | full set incl. stats |
// | core | user-process | full set incl. stats |
// | core | group | full set incl. stats |
// | core | group-member | get, list, create, update, delete (no stats) |
// | core | group-role | get, list, create, update, delete (no stats) |
// | core | role-type | get, list, create, update, delete (no stats) |
// | core | license | full set incl. stats |
// | core | license-history | get by id, list only |
// | core | country, city, currency | get, list, create, update, delete (no stats) |
// | core | corporation-contact | full set incl. stats |
// | core | webhook-subscription | full set incl. stats (docs/interface.md#webhooks) |
// | core | webhook-delivery | get by id, list only (and redeliver: docs/interface.md#webhooks) |
// | core | identity-provider | full set incl. stats (docs/interface.md#single-sign-on) |
// | partner | business-partner, branch, contact, product, contract | full set incl. stats |
// | partner | contract-item | get, list, create, update, delete (no stats) |
// | partner | accrual | full set incl. stats |
// | document | dms-category, dms-share-link, dms-retention-policy, dms-account-config | full set incl. stats (share link: see docs/interface.md#share-links) |
// | document | dms-matching-rule | full set incl. stats (docs/interface.md#matching-rules) |
// | document | dms-audit-log | get by id, list only |
// | document | dms-file | see docs/interface.md#files (get, update, delete (soft), list; created by upload) |
const INTERFACE: Record<'core' | 'bpm' | 'dms', Record<string, OperationSet>> = {
  core: {
    account: 'full',
    'user-info': 'full',
    'user-process': 'full',
    group: 'full',
    'group-member': 'no-stats',
    'group-role': 'no-stats',
    'role-type': 'no-stats',
    license: 'full',
    'license-history': 'read-only',
    country: 'no-stats',
    city: 'no-stats',
    currency: 'no-stats',
    'corporation-contact': 'full',
    'webhook-subscription': 'full',
    'webhook-delivery': 'read-only',
    'identity-provider': 'full',
  },
  bpm: {
    'business-partner': 'full',
    branch: 'full',
    contact: 'full',
    product: 'full',
    contract: 'full',
    'contract-item': 'no-stats',
    accrual: 'full',
  },
  dms: {
    'dms-category': 'full',
    'dms-share-link': 'full',
    'dms-retention-policy': 'full',
    'dms-matching-rule': 'full',
    'dms-account-config': 'full',
    'dms-audit-log': 'read-only',
    'dms-file': 'no-create',
  },
};

for (const [service, entities] of Object.entries(INTERFACE)) {
  test(`every ${service} entity of the interface's table is registered with its set`, (t) => {
    const registered = Object.fromEntries(registry.filter((r) => r.service === service).map((r) => [r.path, r.operations]));
    t.deepEqual(registered, entities);
  });
}
