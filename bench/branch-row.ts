/** The branch row both references of bench/branch-get.ts read, and the gateway's JSON shape of it. */

/** The same columns the branch entity maps, by primary key. */
const BRANCH_COLUMNS =
  'select id, version, cr_process_id, status, created_at, updated_at, created_by, updated_by, ' +
  'business_partner_id, branch_name, branch_code, address, phone, email from bpm.branch';

export const SELECT_BRANCH = `${BRANCH_COLUMNS} where id = $1 limit 1`;

/**
 * The same read as bpm-svc runs it along with the caller's live access (libs/service-kit/src/crud/key-read.ts
 * `along`): the id is `$1`, and the row is seen by a super user or within the token's tenant
 * (`access.cr_process_id`).
 */
export const SELECT_BRANCH_ALONG = `${BRANCH_COLUMNS} where id = $1 and (access.super_user or cr_process_id = access.cr_process_id) limit 1`;

export interface BranchRow {
  id: string;
  version: number;
  cr_process_id: string;
  status: boolean;
  created_at: Date;
  updated_at: Date;
  created_by: string | null;
  updated_by: string | null;
  business_partner_id: string;
  branch_name: string;
  branch_code: string;
  address: string | null;
  phone: string | null;
  email: string | null;
}

/** The gateway's record shape (gateway/src/http/record-json.ts recordToJson), in its field order. */
export function toJson(row: BranchRow): Record<string, unknown> {
  return {
    id: Number(row.id),
    version: row.version,
    crProcessId: Number(row.cr_process_id),
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    businessPartnerId: Number(row.business_partner_id),
    branchName: row.branch_name,
    branchCode: row.branch_code,
    address: row.address,
    phone: row.phone,
    email: row.email,
  };
}
