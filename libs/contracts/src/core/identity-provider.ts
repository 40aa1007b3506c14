import { defineResource } from '@platform/kit/resource/resource.ts';
import { IdentityProviderServiceService, IdentityProvider } from '@platform/kit/gen/platform/core/v1/identity_provider.ts';

/**
 * A tenant's OpenID Connect provider (single sign-on, docs/interface.md#single-sign-on): its users
 * sign in there, are provisioned into the tenant on their first sign-in, and are members of the
 * groups its mappings name while their ID token's claims match. The client secret is write-only:
 * accepted on create and update, never answered, never in an event or a record's history.
 */
export const identityProvider = defineResource<IdentityProvider>()({
  path: 'identity-provider',
  name: 'IdentityProvider',
  plural: 'IdentityProviders',
  service: 'core',
  menu: { area: 'administration' },
  grpc: IdentityProviderServiceService,
  encoder: IdentityProvider,
  operations: 'full',
  fields: {
    displayName: {
      kind: 'string',
      required: true,
      maxLength: 100,
      searchable: true,
      doc: 'What the login page offers: "Sign in with <displayName>".',
    },
    issuer: {
      kind: 'string',
      required: true,
      maxLength: 500,
      searchable: true,
      doc: "The provider's issuer: an https URL (http on loopback outside production) serving /.well-known/openid-configuration.",
    },
    clientId: {
      kind: 'string',
      required: true,
      maxLength: 255,
      notReference: "the provider's name for the platform as its client, not a record's id",
      doc: "The platform's client id at the provider.",
    },
    clientSecret: {
      kind: 'string',
      writeOnly: true,
      secret: true,
      maxLength: 500,
      doc: "Write-only: the client's secret at the provider; empty for a public client (PKCE alone).",
    },
    // kept by the hooks in the allowedDomainList column (core-svc/src/resources/identity-provider)
    allowedDomains: {
      kind: 'strings',
      maxItems: 50,
      maxLength: 253,
      doc: 'E-mail domains whose users may sign in (`example.com`); empty: any domain. The ID token must carry a verified e-mail.',
    },
    groupMappings: {
      kind: 'objects',
      message: 'IdentityProviderGroupMapping',
      of: {
        claim: { kind: 'string', required: true, maxLength: 255 },
        value: { kind: 'string', required: true, maxLength: 255 },
        groupName: { kind: 'string', required: true, maxLength: 255 },
      },
      doc: "Claim to group rules: a user whose ID token's claim holds the value is a member of the tenant's group of that name; at every sign-in the memberships of the mapped groups follow the claims.",
    },
    passwordLogin: {
      kind: 'boolean',
      default: false,
      doc: 'Whether users linked to this provider may also log in with a password (false: only through the provider).',
    },
  },
  columns: {
    /** allowedDomains as a JSON array of lower-case domains. */
    allowedDomainList: { kind: 'text', required: true },
    /** groupMappings as a JSON array of {claim, value, groupName}. */
    groupMappingList: { kind: 'text', required: true },
  },
  form: {
    sections: [
      { title: { en: 'Provider', tr: 'Sağlayıcı' }, fields: ['displayName', 'issuer', 'clientId', 'clientSecret', 'status'] },
      { title: { en: 'Who may sign in', tr: 'Kimler girebilir' }, fields: ['allowedDomains', 'passwordLogin'] },
      { title: { en: 'Groups from claims', tr: 'Taleplerden gruplar' }, fields: ['groupMappings'] },
    ],
  },
  labels: {
    en: {
      one: 'Identity provider',
      other: 'Identity providers',
      fields: {
        displayName: 'Display name',
        issuer: 'Issuer',
        clientId: 'Client id',
        clientSecret: 'Client secret',
        allowedDomains: 'Allowed e-mail domains',
        groupMappings: 'Group mappings',
        'groupMappings.claim': 'Claim',
        'groupMappings.value': 'Value',
        'groupMappings.groupName': 'Group name',
        passwordLogin: 'Password login allowed',
      },
      help: {
        displayName: 'The login page offers "Sign in with" this name.',
        issuer: "The provider's address, such as https://login.example.com.",
        clientSecret: 'Never shown again: leave empty to keep the one stored.',
        allowedDomains: 'Empty: any domain.',
        groupMappings: "A user whose claim holds the value joins the tenant's group; the memberships follow the claims at every sign-in.",
        passwordLogin: 'Off: users of this provider sign in only through it.',
      },
    },
    tr: {
      one: 'Kimlik sağlayıcı',
      other: 'Kimlik sağlayıcılar',
      fields: {
        displayName: 'Görünen ad',
        issuer: 'Yayıncı',
        clientId: 'İstemci kimliği',
        clientSecret: 'İstemci parolası',
        allowedDomains: 'İzin verilen e-posta alan adları',
        groupMappings: 'Grup eşlemeleri',
        'groupMappings.claim': 'Talep',
        'groupMappings.value': 'Değer',
        'groupMappings.groupName': 'Grup adı',
        passwordLogin: 'Parolayla girişe izin var',
      },
      help: {
        displayName: 'Giriş sayfası bu adla "ile giriş yap" seçeneği sunar.',
        issuer: 'Sağlayıcının adresi, örneğin https://login.example.com.',
        clientSecret: 'Bir daha gösterilmez: kayıtlı olanı korumak için boş bırakın.',
        allowedDomains: 'Boş: her alan adı.',
        groupMappings: 'Talebi bu değeri taşıyan kullanıcı kiracının grubuna katılır; üyelikler her girişte taleplere uyar.',
        passwordLogin: 'Kapalı: bu sağlayıcının kullanıcıları yalnızca onun üzerinden girer.',
      },
    },
  },
  list: {
    columns: ['displayName', 'issuer', 'clientId', 'passwordLogin', 'status'],
    filters: ['displayName', 'status'],
  },
});
