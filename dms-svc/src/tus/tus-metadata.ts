import { Metadata } from '@tus/utils';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import type { UploadOwner } from '../files/upload-reservations.ts';
import { isFormField } from '../files/upload-fields.ts';

/** What a resumable upload's Upload-Metadata says: the file's name, the type it claims, and the upload form's text fields. */
export interface TusUploadFields {
  filename: string;
  /** The type the client claims (`filetype`, as tus clients send it), the multipart part's Content-Type's counterpart. */
  filetype: string;
  fields: Map<string, string>;
}

/**
 * Keys the service writes into an upload's stored metadata, never accepted from a client (an
 * unknown key is refused) and never shown to one: who created it, and once complete, its file.
 */
export const OWNER_USER = 'dms-owner-user';
export const OWNER_TENANT = 'dms-owner-tenant';
export const FILE_ID = 'dms-file-id';
const SERVICE_KEYS = new Set([OWNER_USER, OWNER_TENANT, FILE_ID]);

/**
 * Reads a creation's Upload-Metadata (tus 1.0.0: comma-separated `key base64value` pairs): `filename`
 * (required), `filetype` (optional) and the upload form's fields (docs/interface.md#files:
 * crProcessId, entityType, …), each once. Anything else — an unknown key, a key twice, a value that
 * is not base64, no metadata at all — is 400 SVC-SYS-2001 naming the key (`Upload-Metadata` when
 * the header cannot be read).
 */
export function tusUploadFieldsOf(header: string | undefined): TusUploadFields {
  let metadata: Record<string, string | null>;
  try {
    metadata = Metadata.parse(header);
  } catch {
    throw invalidField('Upload-Metadata');
  }
  const fields = new Map<string, string>();
  let filename: string | undefined;
  let filetype = '';
  for (const [key, value] of Object.entries(metadata)) {
    if (key === 'filename') filename = value ?? '';
    else if (key === 'filetype') filetype = value ?? '';
    else if (isFormField(key)) fields.set(key, value ?? '');
    else throw invalidField(key.slice(0, 100), 'field.unknown');
    // a value that decodes to invalid UTF-8 is refused rather than stored with U+FFFD
    if (value !== null && value.includes('\uFFFD')) throw invalidField(key);
  }
  if (filename === undefined) throw invalidField('filename', 'field.required');
  return { filename, filetype, fields };
}

/** The stored metadata as shown to its client: without the service's own keys. */
export function clientMetadataOf(metadata: Record<string, string | null | undefined> | undefined): string {
  const shown: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) if (!SERVICE_KEYS.has(key) && value !== undefined) shown[key] = value;
  return Metadata.stringify(shown);
}

/** Who an upload belongs to: the user that created it, in the tenant it worked in. */
export function ownerOf(ctx: CallContext): UploadOwner {
  if (ctx.caller.kind !== 'user') throw new Error('a tus upload has a user');
  return { user: ctx.caller.claims.userCode, tenant: String(ctx.caller.claims.crProcessId) };
}

/** The stored metadata of an upload with its owner's keys added (at creation). */
export function ownedMetadata(metadata: Record<string, string | null> | undefined, owner: UploadOwner): Record<string, string | null> {
  return { ...metadata, [OWNER_USER]: owner.user, [OWNER_TENANT]: owner.tenant };
}

/** Whether an upload's stored metadata names `owner` as the one who created it. */
export function isOwnedBy(metadata: Record<string, string | null | undefined>, owner: UploadOwner): boolean {
  return metadata[OWNER_USER] === owner.user && metadata[OWNER_TENANT] === owner.tenant;
}
