/**
 * What a subscription may carry (docs/adr/0101-what-a-webhook-carries-for-whom.md): an
 * event reaches an endpoint only while the subscription's owner, the user who created it or last
 * updated it, could read that event's record over the API now: the owner active, working in the
 * subscription's tenant and holding `<entity>:read` there (a super user reads everything, a
 * platform service's subscription is the platform's own). The fan-out makes no delivery of an
 * entity the owner may not read; the attempt asks again, so a retry hours later follows a demotion
 * too. An owner deactivated or gone from the tenant disables the subscription, as a change with its
 * event, and its deliveries wait until a user sets its status true again and so becomes its owner.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared, type PreparedStatement } from '@platform/service-kit/db/prepared.ts';
import { forbidden } from '@platform/kit/errors/domain-error.ts';
import { recordEvent } from '@platform/service-kit/events/outbox.ts';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';

/** The entities whose records events carry: the path of every resource of the three services. */
const RECORD_ENTITIES: ReadonlySet<string> = new Set([...coreResources, ...bpmResources, ...dmsResources].map((resource) => resource.path));

/** The owner of a subscription as the live tables say now. */
export interface OwnerState {
  owner: string;
  /** A platform service's (`svc:…`): the platform's own, not limited. */
  internal: boolean;
  active: boolean;
  superUser: boolean;
  /** Works in the subscription's tenant (`core.user_tenant`). */
  tenantHeld: boolean;
  /** The `<entity>:read` roles held in the subscription's tenant (`core.user_tenant_role`). */
  reads: ReadonlySet<string>;
}

/** Send it; or not, with why: the owner gone (the subscription is disabled) or the entity unreadable (this event only). */
export type Verdict = { send: true } | { send: false; ownerGone: boolean; reason: string };

const SEND: Verdict = { send: true };

/** The owner's columns of a subscription `s` (joined with its owner's user_info `u`). */
export const OWNER_COLUMNS = `s.owner, s.owner like 'svc:%' as internal, coalesce(u.status, false) as owner_active, coalesce(u.super_user, false) as owner_super,
       exists (select 1 from core.user_tenant t where t.user_code = s.owner and t.cr_process_id = s.cr_process_id) as tenant_held,
       array(select r.role_code from core.user_tenant_role r
              where r.user_code = s.owner and r.cr_process_id = s.cr_process_id and r.role_code like '%:read') as reads`;

export interface OwnerRow {
  owner: string;
  internal: boolean;
  owner_active: boolean;
  owner_super: boolean;
  tenant_held: boolean;
  reads: string[];
}

/** The owner's columns of a wider row (OWNER_COLUMNS), alone. */
export function ownerRowOf(row: OwnerRow): OwnerRow {
  return {
    owner: row.owner,
    internal: row.internal,
    owner_active: row.owner_active,
    owner_super: row.owner_super,
    tenant_held: row.tenant_held,
    reads: row.reads,
  };
}

function stateOf(row: OwnerRow): OwnerState {
  return {
    owner: row.owner,
    internal: row.internal,
    active: row.owner_active,
    superUser: row.owner_super,
    tenantHeld: row.tenant_held,
    reads: new Set(row.reads),
  };
}

/** Whether an event of `entity` may reach the endpoint of a subscription whose owner is `state`. */
export function verdictOf(state: OwnerState, entity: string): Verdict {
  if (state.internal) return SEND;
  if (!state.active) return { send: false, ownerGone: true, reason: `owner ${state.owner} is no longer an active user` };
  if (state.superUser) return SEND;
  if (!state.tenantHeld) return { send: false, ownerGone: true, reason: `owner ${state.owner} no longer works in this tenant` };
  if (state.reads.has(`${entity}:read`)) return SEND;
  return { send: false, ownerGone: false, reason: `not sent: owner ${state.owner} may not read ${entity} (${entity}:read)` };
}

/** An active subscription of the fan-out, with its endpoint and its owner's state. */
export interface Subscriber {
  id: string;
  crProcessId: string;
  patterns: string[];
  url: string;
  secret: string;
  owner: OwnerState;
  /** The owner's state as read, for a delivery the fan-out leases (ClaimedDelivery's `owner`). */
  ownerRow: OwnerRow;
}

/** subscribersOf's statement, named: planned once per connection (its owner's views cost milliseconds to plan). */
const SUBSCRIBERS_OF: PreparedStatement = {
  name: 'webhook-subscribers-of',
  text: `select s.id, s.cr_process_id, s.event_type_list, s.url, s.signing_secret, ${OWNER_COLUMNS}
           from core.webhook_subscription s left join core.user_info u on u.user_code = s.owner
          where s.status and s.cr_process_id = any ($1::bigint[])`,
};

/** The active subscriptions of `tenants` with their owners' state, in one statement, outside a transaction. */
export async function subscribersOf(em: EntityManager, tenants: readonly string[]): Promise<Subscriber[]> {
  const rows = await queryPrepared<OwnerRow & { id: string; cr_process_id: string; event_type_list: string; url: string; signing_secret: string }>(
    em,
    SUBSCRIBERS_OF,
    [tenants],
  );
  return rows.map((row) => ({
    id: row.id,
    crProcessId: row.cr_process_id,
    patterns: JSON.parse(row.event_type_list) as string[],
    url: row.url,
    secret: row.signing_secret,
    owner: stateOf(row),
    ownerRow: ownerRowOf(row),
  }));
}

/** A claimed delivery as the attempt's check needs it: with its owner's state when the claim read it (delivery-queue.ts). */
export interface DeliveryOwned {
  id: string;
  subscriptionId: string;
  entity: string;
  owner?: OwnerRow;
}

/**
 * The attempt's check, just before sending (on the owner's state its claim read, else read here): true to send. Otherwise the delivery is settled here:
 * an unreadable entity makes it FAILED with the reason as its lastError (no attempt counted, the
 * endpoint's health untouched; a redelivery asks again), an owner gone disables the subscription
 * and releases the delivery's lease, so that it waits with the subscription's others.
 */
export async function mayDeliver(em: EntityManager, delivery: DeliveryOwned): Promise<boolean> {
  // read by the claim, in the statement that leased the delivery, milliseconds before the send
  const [row] = delivery.owner
    ? [delivery.owner]
    : await em.execute<OwnerRow[]>(
        `select ${OWNER_COLUMNS} from core.webhook_subscription s left join core.user_info u on u.user_code = s.owner where s.id = ?`,
        [delivery.subscriptionId],
      );
  // deleted meanwhile: its deliveries went with it
  if (!row) return false;
  const verdict = verdictOf(stateOf(row), delivery.entity);
  if (verdict.send) return true;
  if (verdict.ownerGone) {
    await disableForOwner(em, delivery.subscriptionId, verdict.reason);
    await em.execute('update core.webhook_delivery set leased_until = null where id = ?', [delivery.id]);
  } else {
    await em.execute(
      `update core.webhook_delivery set delivery_status = 'FAILED', last_error = ?, next_attempt_at = null, leased_until = null
        where id = ? and delivery_status = 'PENDING'`,
      [verdict.reason, delivery.id],
    );
  }
  return false;
}

/**
 * Disables an active subscription whose owner is gone (status false, disabledAt, disabledReason), as
 * a change with its version raised and its event, in a transaction of its own; nothing when it is
 * passive already.
 */
export async function disableForOwner(em: EntityManager, subscriptionId: string, reason: string): Promise<void> {
  await em.transactional(async (tx) => {
    const [row] = await tx.execute<{ version: number; cr_process_id: string; disabled_at: Date }[]>(
      `update core.webhook_subscription set status = false, disabled_at = now(), disabled_reason = ?, version = version + 1,
         updated_at = now(), updated_by = 'svc:core'
       where id = ? and status returning version, cr_process_id, disabled_at`,
      [reason, subscriptionId],
    );
    if (!row) return;
    await recordEvent(tx, {
      type: 'webhook-subscription.updated',
      crProcessId: Number(row.cr_process_id),
      key: Number(subscriptionId),
      version: Number(row.version),
      actor: 'svc:core',
      changes: {
        status: { from: true, to: false },
        disabledAt: { from: null, to: new Date(row.disabled_at).toISOString() },
        disabledReason: { from: null, to: reason },
      },
    });
  });
}

/** The entity a pattern names (`branch` of `branch.*` and `branch.updated`), none for `*`. */
function entityOf(pattern: string): string | undefined {
  return pattern === '*' ? undefined : pattern.slice(0, pattern.indexOf('.'));
}

/**
 * A create or update of a subscription makes the caller its owner: 403 SVC-SYS-1003 unless the
 * caller may read every entity its patterns name (`<entity>:read` in the token's tenant; a super
 * user and a platform service pass). `*` names none: the deliveries hold only what the owner may read;
 * nor does `session.*`, whose entity is no resource (its events reach only a super user's or the
 * platform's subscription). A pattern that matches no type at all was refused before (event-types.ts).
 */
export async function assertOwnerReads(ctx: CallContext, patterns: readonly string[]): Promise<void> {
  if (ctx.caller.kind !== 'user' || ctx.caller.access.superUser) return;
  const entities = new Set(patterns.map(entityOf).filter((entity) => entity !== undefined && RECORD_ENTITIES.has(entity)));
  if (entities.size === 0) return;
  const needed = [...entities].map((entity) => `${entity}:read`);
  // in the write's transaction: the roles as the live access reads them (core.user_tenant_role)
  const held = await ctx.em.execute<{ role_code: string }[]>(
    'select role_code from core.user_tenant_role where user_code = ? and cr_process_id = ? and role_code in (?)',
    [ctx.caller.claims.userCode, ctx.caller.claims.crProcessId, needed],
  );
  if (held.length < needed.length) throw forbidden();
}
