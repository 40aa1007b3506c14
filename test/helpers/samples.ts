/**
 * A sample record per resource of the registry, shared by the three table-driven walks: the CRUD
 * walk (crud.test.ts), the role matrix (roles.test.ts) and the cross-tenant matrix
 * (tenants.test.ts). A new resource needs a sample here, and all three then cover it.
 */
import { apiFields, isScalar, keyOf, type Operation, type Resource } from '@platform/kit/resource/resource.ts';
import {
  accountFor,
  accountOf,
  adminSession,
  create,
  createBranch,
  createContract,
  createContractItem,
  createPartner,
  createProduct,
  createUser,
  unique,
} from './factories.ts';
import { uploadRecord } from './files.ts';
import { api, type ApiResponse } from './platform.ts';

export interface Sample {
  /** A valid create body in tenant `crProcessId`, creating (as the admin) what it references. */
  create(crProcessId: number): Promise<Record<string, unknown>>;
  /** Fields an update changes; fresh values on every call, so that unique fields stay unique. */
  update(): Record<string, unknown>;
  /**
   * A read-only resource: a record of tenant `crProcessId` made the way the platform makes them
   * (a licence write makes its history row); its create and update are never called.
   */
  existing?(crProcessId: number): Promise<any>;
  /**
   * The record is the tenant itself (account: its crProcessId is the tenant's id, globally unique).
   * A tenant that exists has exactly one, so the walks use it: a create in that tenant is 409
   * SVC-SYS-4005, and its delete 409 SVC-SYS-4003 while users' selects name it.
   */
  tenantRecord?: true;
  /**
   * A tenant holds at most one (dms-account-config): the walks act on the tenant's own where it has
   * one, and a create in a tenant that has one is 409 SVC-SYS-4005.
   */
  onePerTenant?: true;
}

export const samples: Record<string, Sample> = {
  account: {
    create: async (crProcessId) => ({ accountNo: unique('ACC-'), accountName: 'Walk account', crProcessId, email: 'a@example.com' }),
    update: () => ({ accountName: 'Walk account renamed', taxNumber: 'TX-1' }),
    tenantRecord: true,
  },
  'user-info': {
    create: async (crProcessId) => ({ crProcessId, userCode: unique('walk-'), userDescription: 'Walk user', password: 'walk-password-1' }),
    update: () => ({ userDescription: 'Walk user renamed', languageCode: 'tr' }),
  },
  'user-process': {
    create: async (crProcessId) => {
      const user = await create('user-info', { crProcessId, userCode: unique('walk-'), userDescription: 'Walk', password: 'walk-password-1' });
      // the tenant's own account where it has one (a user who is not a super user may name no other)
      const accountNo = (await accountOf(crProcessId))?.accountNo ?? 'DEFAULT';
      return { crProcessId, userCode: user.userCode, userProcessSelects: [{ accountNo }] };
    },
    update: () => ({ userDescription: 'Walk process renamed' }),
  },
  group: {
    create: async (crProcessId) => ({ crProcessId, groupName: unique('Walk group '), description: 'Walk group' }),
    update: () => ({ groupName: unique('Walk group renamed '), description: 'Walk group renamed' }),
  },
  'group-member': {
    create: async (crProcessId) => {
      // a member must have a select for the group's tenant (docs/interface.md#identity: a user holds the roles
      // of the groups it is a member of in the current tenant)
      const [group, { user }] = await Promise.all([
        create('group', { crProcessId, groupName: unique('Walk group ') }),
        createUser([(await accountFor(crProcessId)).accountNo], { crProcessId, userDescription: 'Walk member' }, { crProcessId }),
      ]);
      return { crProcessId, groupId: group.id, userCode: user.userCode };
    },
    update: () => ({ status: false }),
  },
  'role-type': {
    create: async (crProcessId) => ({ crProcessId, roleCode: unique('walk:'), roleName: 'Walk role', description: 'Walk role' }),
    update: () => ({ roleName: 'Walk role renamed', description: 'Walk role renamed' }),
  },
  'group-role': {
    create: async (crProcessId) => {
      const [group, roleType] = await Promise.all([
        create('group', { crProcessId, groupName: unique('Walk group ') }),
        create('role-type', { crProcessId, roleCode: unique('walk:'), roleName: 'Walk role' }),
      ]);
      return { crProcessId, groupId: group.id, roleTypeId: roleType.id };
    },
    update: () => ({ status: false }),
  },
  license: {
    create: async (crProcessId) => ({
      crProcessId,
      licenseKey: unique('LIC-'),
      licenseType: 'STANDARD',
      maxUsers: 10,
      validFrom: '2026-01-01',
      validUntil: '2026-12-31',
    }),
    update: () => ({ licenseType: 'ENTERPRISE', maxUsers: 25, validUntil: '2027-12-31' }),
  },
  'license-history': {
    create: readOnly,
    update: readOnly,
    existing: async (crProcessId) => {
      const licence = await create('license', await sampleOf({ path: 'license' }).create(crProcessId));
      const history = await api('POST', '/api/license-history/list', {
        token: (await adminSession()).token,
        body: { filter: { crProcessId, licenseId: licence.id, action: 'CREATE' } },
      });
      const [row] = history.body.content;
      if (!row) throw new Error(`no license-history row for licence ${licence.id}: ${history.text}`);
      return row;
    },
  },
  country: {
    create: async (crProcessId) => ({ crProcessId, code: uniqueCode(2), name: 'Walk country' }),
    update: () => ({ name: 'Walk country renamed' }),
  },
  city: {
    create: async (crProcessId) => {
      const country = await create('country', { crProcessId, code: uniqueCode(2), name: 'Walk country' });
      return { crProcessId, countryId: country.id, name: 'Walk city', code: '34' };
    },
    update: () => ({ name: 'Walk city renamed', code: '06' }),
  },
  currency: {
    create: async (crProcessId) => ({ crProcessId, code: uniqueCode(3), name: 'Walk currency', symbol: '¤', fractionDigits: 2 }),
    update: () => ({ name: 'Walk currency renamed', fractionDigits: 3 }),
  },
  'corporation-contact': {
    create: async (crProcessId) => ({ crProcessId, fullName: 'Walk Contact', title: 'CFO', email: 'c@example.com', department: 'Finance' }),
    update: () => ({ fullName: 'Walk Contact renamed', phone: '+90 212 000 00 01' }),
  },
  'business-partner': {
    create: async (crProcessId) => ({ crProcessId, partnerCode: unique('P-'), partnerName: 'Walk partner', partnerType: 'SUPPLIER' }),
    update: () => ({ partnerName: 'Walk partner renamed', partnerType: 'BOTH', phone: '+90 212 000 00 00' }),
  },
  branch: {
    create: async (crProcessId) => {
      const partner = await createPartner(crProcessId);
      return { crProcessId, businessPartnerId: partner.id, branchName: 'Walk branch', branchCode: unique('B-') };
    },
    update: () => ({ branchName: 'Walk branch renamed', address: 'Istiklal Cd. 1' }),
  },
  contact: {
    create: async (crProcessId) => {
      const partner = await createPartner(crProcessId);
      const branch = await createBranch(crProcessId, partner.id);
      return { crProcessId, businessPartnerId: partner.id, branchId: branch.id, firstName: 'Walk', lastName: 'Contact', email: 'c@example.com' };
    },
    update: () => ({ lastName: 'Contact renamed', title: 'Buyer', phone: '+90 212 000 00 01' }),
  },
  product: {
    create: async (crProcessId) => ({
      crProcessId,
      productCode: unique('PR-'),
      productName: 'Walk product',
      unit: 'pcs',
      unitPrice: '12.50',
      currencyCode: 'EUR',
      vatRate: '20.00',
    }),
    update: () => ({ productName: 'Walk product renamed', unitPrice: '13.2575', vatRate: '8.00' }),
  },
  contract: {
    create: async (crProcessId) => {
      const partner = await createPartner(crProcessId);
      return {
        crProcessId,
        contractNo: unique('C-'),
        businessPartnerId: partner.id,
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        currencyCode: 'TRY',
        billingPeriod: 'MONTHLY',
        totalAmount: '1200.00',
        description: 'Walk contract',
      };
    },
    update: () => ({ billingPeriod: 'QUARTERLY', endDate: '2027-06-30', totalAmount: '1500.50' }),
  },
  'contract-item': {
    create: async (crProcessId) => {
      const [contract, product] = await Promise.all([createContract(crProcessId), createProduct(crProcessId)]);
      return { crProcessId, contractId: contract.id, productId: product.id, quantity: '3.00', unitPrice: '12.50', description: 'Walk line' };
    },
    update: () => ({ quantity: '2.50', description: 'Walk line renamed' }),
  },
  'dms-category': {
    // top-level: a create that makes its parent first would count twice in the walks (test/dms-category.test.ts covers parents)
    create: async (crProcessId) => ({ crProcessId, categoryName: unique('Walk category '), description: 'Walk category' }),
    update: () => ({ categoryName: unique('Walk category renamed '), description: 'Walk category renamed' }),
  },
  'dms-retention-policy': {
    create: async (crProcessId) => {
      const category = await create('dms-category', { crProcessId, categoryName: unique('Walk category ') });
      return { crProcessId, policyName: 'Walk policy', retentionDays: 30, categoryId: category.id, entityType: 'contract', action: 'PURGE' };
    },
    update: () => ({ policyName: 'Walk policy renamed', retentionDays: 365, action: 'SOFT_DELETE' }),
  },
  'dms-matching-rule': {
    create: async (crProcessId) => {
      const category = await create('dms-category', { crProcessId, categoryName: unique('Walk category ') });
      return { crProcessId, ruleName: unique('Walk rule '), matchType: 'ANY', pattern: 'invoice fatura', categoryId: category.id, ruleOrder: 10 };
    },
    update: () => ({ ruleName: unique('Walk rule renamed '), matchType: 'REGEX', pattern: '^inv[0-9]+', ruleOrder: 20 }),
  },
  'dms-account-config': {
    // the limits apply to the tenant's uploads (docs/interface.md#files): the walks upload untyped parts
    // (application/octet-stream) into the same tenants
    create: async (crProcessId) => ({
      crProcessId,
      maxFileSize: 10_485_760,
      allowedMimeTypes: 'application/pdf,image/png,application/octet-stream',
      storageQuotaBytes: 1_073_741_824,
      purgeAfterDays: 30,
    }),
    update: () => ({ maxFileSize: 2_097_152, allowedMimeTypes: '', purgeAfterDays: 7 }),
    onePerTenant: true,
  },
  'dms-share-link': {
    // fileId names a dms-file of the same tenant: the sample uploads one
    create: async (crProcessId) => ({
      crProcessId,
      fileId: (await uploadRecord((await adminSession()).token, crProcessId, `shared ${unique()}`)).id,
      expiresAt: '2030-01-01T00:00:00.000Z',
      password: 'walk-share-pass',
      maxDownloads: 5,
    }),
    update: () => ({ expiresAt: '2031-06-30T12:00:00.000Z', maxDownloads: 10 }),
  },
  'dms-audit-log': {
    create: readOnly,
    update: readOnly,
    existing: async (crProcessId) => {
      const link = await create('dms-share-link', await sampleOf({ path: 'dms-share-link' }).create(crProcessId));
      const audit = await api('POST', '/api/dms-audit-log/list', {
        token: (await adminSession()).token,
        body: { filter: { crProcessId, shareLinkId: link.id, action: 'SHARE_CREATE' } },
      });
      const [row] = audit.body.content;
      if (!row) throw new Error(`no dms-audit-log row for share link ${link.id}: ${audit.text}`);
      return row;
    },
  },
  accrual: {
    create: async (crProcessId) => {
      const contract = await createContract(crProcessId);
      const item = await createContractItem(crProcessId, contract.id);
      return {
        crProcessId,
        contractId: contract.id,
        contractItemId: item.id,
        periodStart: '2026-01-01',
        periodEnd: '2026-01-31',
        amount: '100.00',
        currencyCode: 'EUR',
      };
    },
    update: () => ({ amount: '120.50', periodEnd: '2026-02-28' }),
  },
  // an issuer on loopback that listens nowhere: a provider is only read at a sign-in, which the walks do not make
  'identity-provider': {
    create: async (crProcessId) => ({
      crProcessId,
      displayName: unique('Walk provider '),
      issuer: 'http://127.0.0.1:9/walk',
      clientId: 'walk-client',
      clientSecret: 'walk-client-secret',
      allowedDomains: ['walk.test'],
    }),
    update: () => ({ displayName: unique('Walk provider '), passwordLogin: true }),
  },
  'webhook-subscription': {
    // an endpoint on loopback that listens nowhere, for the events of sessions, which the walks do not end
    // (and whose entity is no resource, so a writer holding no read role may name it): the walks deliver nothing
    create: async (crProcessId) => ({ crProcessId, url: 'http://127.0.0.1:9/walk', eventTypes: ['session.*'], description: 'Walk subscription' }),
    update: () => ({ description: unique('Walk subscription renamed '), eventTypes: ['session.ended'] }),
  },
  'webhook-delivery': {
    create: readOnly,
    update: readOnly,
    // made by the dispatcher's fan-out from an event of the tenant that a subscription names; answered
    // once nothing changes it any more (FAILED after about 1.4 s in the suite, or its subscription disabled)
    existing: async (crProcessId) => {
      const subscription = await create('webhook-subscription', { crProcessId, url: 'http://127.0.0.1:9/walk', eventTypes: ['business-partner.created'] });
      await createPartner(crProcessId);
      const token = (await adminSession()).token;
      for (let tries = 0; tries < 300; tries++) {
        const found = await api('POST', '/api/webhook-delivery/list', { token, body: { filter: { crProcessId, subscriptionId: subscription.id } } });
        const [row] = found.body.content ?? [];
        if (row?.deliveryStatus === 'FAILED') return row;
        // or its subscription disabled first (the endpoint failing for WEBHOOK_DISABLE_AFTER_MS): no more attempts either
        if (row && (await api('GET', `/api/webhook-subscription/${subscription.id}`, { token })).body.status === false)
          return (await api('GET', `/api/webhook-delivery/${row.id}`, { token })).body;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no webhook-delivery for subscription ${subscription.id}`);
    },
  },
  'dms-file': {
    // files are made by the upload, not by create (docs/adr/0033-file-records-soft-delete-category.md)
    create: readOnly,
    update: () => ({ description: unique('Walk file '), tags: 'walk,file', entityType: 'contract', entityId: 7 }),
    existing: async (crProcessId) => uploadRecord((await adminSession()).token, crProcessId, `walk file ${unique()}`),
  },
};

function readOnly(): never {
  throw new Error('a read-only resource is never created or updated through the API');
}

/** A code of `length` capital letters, fresh per call within a test file (tenants are fresh anyway). */
let codes = 0;
function uniqueCode(length: number): string {
  let n = codes++;
  let code = '';
  for (let i = 0; i < length; i++) {
    code = String.fromCharCode(65 + (n % 26)) + code;
    n = Math.floor(n / 26);
  }
  return code;
}

export function sampleOf(resource: Pick<Resource, 'path'>): Sample {
  const sample = samples[resource.path];
  if (!sample) throw new Error(`no sample for ${resource.path}: add one to test/helpers/samples.ts`);
  return sample;
}

/** The operations of the CRUD set a resource offers, in the order the walks try them. */
export const OPERATIONS: readonly Operation[] = ['get', 'list', 'stats', 'create', 'update', 'delete'];

/**
 * A record of `crProcessId` to act on, made by the admin: a new one from the sample, or the tenant's
 * own record for a `tenantRecord` sample.
 */
export async function sampleRecord(resource: Resource, crProcessId: number): Promise<any> {
  const sample = sampleOf(resource);
  if (sample.tenantRecord) {
    const own = await accountOf(crProcessId);
    if (!own) throw new Error(`tenant ${crProcessId} has no account`);
    return own;
  }
  if (sample.existing) return sample.existing(crProcessId);
  if (sample.onePerTenant) {
    const own = await api('POST', `/api/${resource.path}/list`, { token: (await adminSession()).token, body: { filter: { crProcessId } } });
    if (own.body.content?.[0]) return own.body.content[0];
  }
  return create(resource.path, await sample.create(crProcessId));
}

/**
 * A record as stored: without the fields computed for each answer (dms-file's downloadUrl carries an
 * expiry that moves on every few minutes), for tests that check a record was left unchanged.
 */
export function stored(resource: Resource, record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).filter(([name]) => {
      const spec = apiFields(resource)[name];
      return !(spec && isScalar(spec) && spec.computed);
    }),
  );
}

/** The URL path segment of a record's key. */
export function keyPath(resource: Resource, record: Record<string, unknown>): string {
  return encodeURIComponent(String(record[keyOf(resource)]));
}

export interface Target {
  /** The tenant a create or list names, and stats' `?crProcessId=`. */
  crProcessId: number;
  /** The record get, update and delete address. */
  record: Record<string, unknown>;
}

/**
 * One operation of the CRUD set over HTTP, as a user: get, update and delete address
 * `target.record` (update with its version and the sample's changes), create posts a new sample
 * body of `target.crProcessId`, list and stats name that tenant.
 */
export async function perform(resource: Resource, operation: Operation, token: string, target: Target): Promise<ApiResponse> {
  const base = `/api/${resource.path}`;
  const key = keyPath(resource, target.record);
  switch (operation) {
    case 'get':
      return api('GET', `${base}/${key}`, { token });
    case 'list':
      return api('POST', `${base}/list`, { token, body: { page: 0, size: 20, filter: { crProcessId: target.crProcessId } } });
    case 'stats':
      return api('GET', `${base}/stats?crProcessId=${target.crProcessId}`, { token });
    case 'create':
      return api('POST', base, { token, body: await sampleOf(resource).create(target.crProcessId) });
    case 'update':
      return api('PUT', `${base}/${key}`, { token, body: { version: target.record.version, ...sampleOf(resource).update() } });
    case 'delete':
      return api('DELETE', `${base}/${key}`, { token });
  }
}

/**
 * What an operation answers when the caller passes the role and tenant checks: 200 (204 for
 * delete), except for a `tenantRecord` resource in a tenant that has its record (see Sample).
 */
export function passing(resource: Resource, operation: Operation): { status: number; code?: string } {
  if (sampleOf(resource).tenantRecord) {
    if (operation === 'create') return { status: 409, code: 'SVC-SYS-4005' };
    if (operation === 'delete') return { status: 409, code: 'SVC-SYS-4003' };
  }
  // the walks act on the tenant's own record: a second one is a duplicate
  if (sampleOf(resource).onePerTenant && operation === 'create') return { status: 409, code: 'SVC-SYS-4005' };
  return { status: operation === 'delete' ? 204 : 200 };
}
