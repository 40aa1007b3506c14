import { BigIntType, EntitySchema } from '@mikro-orm/postgresql';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { SCHEMA } from './schema.ts';

/**
 * A sign-in under way (docs/adr/0131-sign-in-state-is-kept-by-core-svc.md): its state, nonce and
 * PKCE verifier, the callback address and the hash of the browser's SVC_OIDC cookie. Taken once
 * (deleted as it is read) and good for a few minutes only.
 */
export const OidcSignInEntity = new EntitySchema<Row>({
  name: 'OidcSignIn',
  tableName: 'oidc_sign_in',
  schema: SCHEMA,
  properties: {
    state: { type: 'string', length: 128, primary: true },
    providerId: { type: new BigIntType('number'), fieldName: 'provider_id' },
    nonce: { type: 'string', length: 128 },
    codeVerifier: { type: 'string', length: 128, fieldName: 'code_verifier' },
    redirectUri: { type: 'string', length: 2000, fieldName: 'redirect_uri' },
    returnTo: { type: 'string', length: 1000, fieldName: 'return_to' },
    bindingHash: { type: 'string', length: 64, fieldName: 'binding_hash' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'expires_at', index: 'oidc_sign_in_expires_at_index' },
  } as never,
});

/** A user provisioned by (or linked to) a provider: the provider's subject identifier → the platform's userCode. */
export const OidcIdentityEntity = new EntitySchema<Row>({
  name: 'OidcIdentity',
  tableName: 'oidc_identity',
  schema: SCHEMA,
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    providerId: { type: new BigIntType('number'), fieldName: 'provider_id' },
    subject: { type: 'string', length: 255 },
    userCode: { type: 'string', length: 64, fieldName: 'user_code', index: 'oidc_identity_user_code_index' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'created_at' },
    lastSignInAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'last_sign_in_at' },
  } as never,
  uniques: [{ properties: ['providerId', 'subject'] as never, name: 'oidc_identity_provider_subject_unique' }],
});

/** A platform session opened through a provider, with the ID token its RP-initiated logout names (id_token_hint). */
export const OidcSessionEntity = new EntitySchema<Row>({
  name: 'OidcSession',
  tableName: 'oidc_session',
  schema: SCHEMA,
  properties: {
    sessionId: { type: 'uuid', primary: true, fieldName: 'session_id' },
    providerId: { type: new BigIntType('number'), fieldName: 'provider_id' },
    idToken: { type: 'text', fieldName: 'id_token' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'created_at', index: 'oidc_session_created_at_index' },
  } as never,
});

/** The single sign-on tables, for the service's entity list (db.ts). */
export const ssoEntities = [OidcSignInEntity, OidcIdentityEntity, OidcSessionEntity];
