import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { userOf, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { TokenService, UserClaims, VerifiedClaims } from '@platform/kit/auth/jwt.ts';
import { hashPassword, verifyPassword } from '@platform/service-kit/auth/password.ts';
import type { CoreConfig } from '../config.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import { DomainError, forbidden, invalidField, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { isLanguage } from '@platform/kit/i18n/messages.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { queryPrepared } from '@platform/service-kit/db/prepared.ts';
import type {
  ChangePasswordRequest,
  LoginRequest,
  LoginResponse,
  MeResponse,
  SwitchAccountRequest,
  SwitchAccountResponse,
} from '@platform/kit/gen/platform/core/v1/auth.ts';
import type { UserProcess } from '@platform/kit/gen/platform/core/v1/user_process.ts';
import { SessionEntity, UserInfoEntity, UserProcessEntity } from '../db.ts';
import { verifyCaptcha } from './captcha.ts';
import { rolesHeld } from './roles-held.ts';
import { selectsOf, type SelectView } from '../resources/user-process/user-process.operations.ts';
import { heldTenant } from '../resources/user-process/user-tenants.ts';
import { userInfo } from '@platform/contracts/core/user-info.ts';
import { endSession } from '../sessions/session-ended.ts';
import { recordEvent } from '@platform/service-kit/events/outbox.ts';
import type { userProcess } from '@platform/contracts/core/user-process.ts';

const LOGIN_FAILED = (): DomainError => new DomainError('SVC-SYS-1002', 'login.failed');

/** What login, me and switch-account read of a user and its user-process. */
type UserView = Pick<RowOf<typeof userInfo>, 'userCode' | 'userDescription' | 'password' | 'status' | 'superUser' | 'tokenVersion'>;
type ProcessView = Pick<RowOf<typeof userProcess>, 'id' | 'userDescription' | 'crProcessId'>;

interface Identity {
  user: UserView;
  process: ProcessView;
  selects: SelectView[];
}

/** Login and the caller's own view of its session (docs/interface.md#auth, docs/interface.md#identity). */
export function authHandlers(config: CoreConfig, tokens: TokenService) {
  return {
    async login(request: LoginRequest, ctx: CallContext): Promise<LoginResponse> {
      if (ctx.caller.kind !== 'internal') throw unauthenticated();
      if (!isLanguage(request.languageCode)) throw invalidField('languageCode', 'field.enum', { values: 'en, tr' });
      if (config.captcha) await verifyCaptcha(config.captcha, request.captchaToken, request.ipAddress);
      if (request.userCode === '' || request.password === '') throw LOGIN_FAILED();
      const found = await loginIdentity(ctx.em, request.userCode);
      const user = found?.user;
      const valid = await verifyPassword(request.password, user?.password, config.bcryptRounds);
      if (!found || !user || !valid || user.status !== true) throw LOGIN_FAILED();
      const identity = found.identity;
      if (!identity) throw LOGIN_FAILED();
      const current = identity.selects.find((s) => s.crProcessId === identity.process.crProcessId) ?? identity.selects[0];
      if (!current) throw LOGIN_FAILED();

      const now = new Date();
      const expiresAt = new Date(now.getTime() + config.jwtTtlSeconds * 1000);
      const sessionId = randomUUID();
      // One prepared INSERT (no unit of work, no BEGIN/COMMIT around it): nothing else is written here.
      await queryPrepared(ctx.em, INSERT_SESSION, [
        sessionId,
        user.userCode,
        identity.process.id,
        current.accountNo,
        current.crProcessId,
        request.ipAddress || null,
        request.userAgent ? request.userAgent.slice(0, 1000) : null,
        request.projectCode?.slice(0, 100) ?? null,
        now,
        now,
        expiresAt,
        true,
      ]);

      const claims: UserClaims = {
        sub: user.userCode,
        userProcessId: identity.process.id,
        userCode: user.userCode,
        userDescription: identity.process.userDescription ?? user.userDescription,
        superUser: user.superUser === true,
        tokenVersion: Number(user.tokenVersion ?? 0),
        accountNo: current.accountNo,
        crProcessId: current.crProcessId,
        sid: sessionId,
        lang: request.languageCode,
      };
      return {
        token: tokens.sign(claims, config.jwtTtlSeconds),
        expiresAt: expiresAt.toISOString(),
        expiresIn: config.jwtTtlSeconds,
        userCode: claims.userCode,
        source: 'DB',
        superUser: claims.superUser,
        userProcess: userProcessView(identity),
      };
    },

    async me(_request: unknown, ctx: CallContext): Promise<MeResponse> {
      const claims = userOf(ctx);
      // the roles on their own connection of the pool, while the session and identity are read
      const [roles, identity] = await Promise.all([
        rolesInCurrentTenant(ctx),
        sessionOf(ctx.em, claims).then(({ user }) => identityOf(ctx.em, user, unauthenticated)),
      ]);
      return meOf(claims, identity, claims.accountNo, claims.crProcessId, roles);
    },

    async switchAccount(request: SwitchAccountRequest, ctx: CallContext): Promise<SwitchAccountResponse> {
      const claims = userOf(ctx);
      const { user, session } = await sessionOf(ctx.em, claims);
      const identity = await identityOf(ctx.em, user, unauthenticated);
      // only a tenant the user holds now: a select of its active user-process naming an active account
      const target = await heldTenant(ctx.em, claims.userCode, request.accountNo);
      if (!target) throw forbidden();
      session.accountNo = target.accountNo;
      session.crProcessId = target.crProcessId;
      session.lastSeenAt = new Date();
      await ctx.em.flush();
      const { iat: _iat, exp: _exp, ...rest } = claims;
      const next: UserClaims = { ...rest, superUser: user.superUser === true, accountNo: target.accountNo, crProcessId: target.crProcessId };
      const remaining = Math.max(1, Math.floor(((session.expiresAt as Date).getTime() - Date.now()) / 1000));
      // the target is a tenant the user holds now (heldTenant): its roles count
      const roles = await rolesHeld(ctx.em, claims.userCode, target.crProcessId);
      return { token: tokens.sign(next, remaining), expiresIn: remaining, me: meOf(next, identity, target.accountNo, target.crProcessId, roles) };
    },

    async changePassword(request: ChangePasswordRequest, ctx: CallContext): Promise<object> {
      const claims = userOf(ctx);
      const { user } = await sessionOf(ctx.em, claims);
      // the rules of user-info's password field (8 characters to 72 bytes), stated once
      toRowValue('newPassword', userInfo.fields.password, request.newPassword);
      if (!(await verifyPassword(request.currentPassword, user.password, config.bcryptRounds))) {
        throw new DomainError('SVC-SYS-1006', 'password.wrongCurrent');
      }
      const hash = await hashPassword(request.newPassword, config.bcryptRounds);
      await ctx.em.transactional(async (em) => {
        // One statement: the version rises even when two changes race.
        const [changed] = await em.execute<{ version: number; cr_process_id: string }[]>(
          `update core.user_info set password = ?, token_version = token_version + 1, version = version + 1, updated_at = ?, updated_by = ?
            where id = ? returning version, cr_process_id`,
          [hash, new Date(), claims.userCode, user.id],
        );
        if (!changed) throw unauthenticated();
        // an update of the user-info like any other, whose one change (the password) never enters an event
        await recordEvent(em, {
          type: 'user-info.password-changed',
          crProcessId: Number(changed.cr_process_id),
          entity: userInfo.path,
          key: user.id,
          version: Number(changed.version),
          actor: claims.userCode,
          changes: {},
        });
      });
      return {};
    },

    async logout(_request: unknown, ctx: CallContext): Promise<object> {
      const claims = userOf(ctx);
      await endSession(ctx.em, claims.sid, claims.userCode);
      return {};
    },
  };
}

/**
 * The user and session rows behind a token. Every call has already been found live (the user
 * active with the token's tokenVersion, the session its own, open and unexpired: libs/service-kit/src/auth/
 * access.ts); rows gone since then are 401 too.
 */
async function sessionOf(em: EntityManager, claims: VerifiedClaims): Promise<{ user: RowOf<typeof userInfo>; session: Row }> {
  const user = await em.findOne(UserInfoEntity, { userCode: claims.userCode });
  const session = await em.findOne(SessionEntity, { sessionId: claims.sid, userCode: claims.userCode });
  if (!user || !session) throw unauthenticated();
  return { user, session };
}

/**
 * The roles the caller holds in its token's tenant now, as its role checks would find them: none
 * unless it may work there (the live access's tenantHeld, true for a super user in any tenant).
 */
function rolesInCurrentTenant(ctx: CallContext): Promise<string[]> {
  if (ctx.caller.kind !== 'user' || !ctx.caller.access.tenantHeld) return Promise.resolve([]);
  return rolesHeld(ctx.em, ctx.caller.claims.userCode, ctx.caller.claims.crProcessId);
}

function meOf(claims: UserClaims, identity: Identity, accountNo: string, crProcessId: number, roles: string[]): MeResponse {
  return {
    success: true,
    userCode: claims.userCode,
    superUser: identity.user.superUser === true,
    userProcess: userProcessView(identity),
    accountNo,
    crProcessId,
    roles,
  };
}

interface LoginRow {
  user_code: string;
  user_description: string;
  password: string;
  status: boolean;
  super_user: boolean;
  token_version: number;
  process_id: string | null;
  process_description: string | null;
  process_cr_process_id: string | null;
  account_no: string | null;
  account_name: string | null;
  account_cr_process_id: string | null;
}

/** The session_log row of a login (SessionEntity's columns; logout_at stays null). */
const INSERT_SESSION = {
  name: 'core-login-session',
  text: `insert into core.session_log
           (session_id, user_code, user_process_id, account_no, cr_process_id, ip_address, user_agent, project_code,
            login_at, last_seen_at, expires_at, active)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
};

const LOGIN_IDENTITY = {
  name: 'core-login-identity',
  text: `select u.user_code, u.user_description, u.password, u.status, u.super_user, u.token_version,
                p.id as process_id, p.user_description as process_description, p.cr_process_id as process_cr_process_id,
                a.account_no, a.account_name, a.cr_process_id as account_cr_process_id
           from core.user_info u
           left join core.user_process p on p.user_code = u.user_code and p.status
           left join core.user_tenant a on a.user_code = p.user_code
          where u.user_code = $1
          order by a.account_no`,
};

/**
 * What login reads, in one named prepared statement (one round trip instead of three, parsed and
 * planned once per connection): the user by its code, its active user-process and the tenants it
 * holds (`core.user_tenant`: selects of active accounts, ordered by accountNo). Undefined for an
 * unknown user; `identity` undefined when the user has no active user-process.
 */
async function loginIdentity(em: EntityManager, userCode: string): Promise<{ user: UserView; identity: Identity | undefined } | undefined> {
  const rows = await queryPrepared<LoginRow>(em, LOGIN_IDENTITY, [userCode]);
  const [first] = rows;
  if (!first) return undefined;
  const user: UserView = {
    userCode: first.user_code,
    userDescription: first.user_description,
    password: first.password,
    status: first.status,
    superUser: first.super_user,
    tokenVersion: first.token_version,
  };
  if (first.process_id === null) return { user, identity: undefined };
  const process: ProcessView = {
    id: Number(first.process_id),
    userDescription: first.process_description,
    crProcessId: Number(first.process_cr_process_id),
  };
  const selects: SelectView[] = [];
  for (const row of rows) {
    if (row.account_no === null) continue;
    selects.push({ accountNo: row.account_no, accountName: row.account_name ?? '', crProcessId: Number(row.account_cr_process_id) });
  }
  return { user, identity: { user, process, selects } };
}

async function identityOf(em: EntityManager, user: UserView, missing: () => DomainError): Promise<Identity> {
  const process = await em.findOne(UserProcessEntity, { userCode: user.userCode });
  if (!process) throw missing();
  const selects = (await selectsOf(em, [process.id])).get(process.id) ?? [];
  return { user, process, selects };
}

function userProcessView({ user, process, selects }: Identity): UserProcess {
  return {
    id: process.id,
    userCode: user.userCode,
    userDescription: process.userDescription ?? user.userDescription,
    userProcessSelects: selects,
  };
}
