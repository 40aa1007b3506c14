import { actorOf, tenantScope, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { toMessages } from '@platform/service-kit/crud/handlers.ts';
import type { Message, ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { findVisible } from '@platform/service-kit/crud/key-read.ts';
import { changesOf } from '@platform/service-kit/crud/changes.ts';
import { keyText, recordEvent } from '@platform/service-kit/events/outbox.ts';
import { allFields, isScalar } from '@platform/kit/resource/resource.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import type { ApproveAccrualRequest, CancelAccrualRequest, InvoiceAccrualRequest } from '@platform/kit/gen/platform/bpm/v1/accrual.ts';
import { accrual } from '@platform/contracts/bpm/accrual.ts';
import { ACCRUAL_MOVES, type AccrualMove, type AccrualMoveDeclaration } from '@platform/contracts/bpm/accrual-moves.ts';

/** A move as declared, its event one of the catalogue's. */
type Move = AccrualMoveDeclaration & Pick<(typeof ACCRUAL_MOVES)[AccrualMove], 'event'>;

/**
 * ApproveAccrual, InvoiceAccrual, CancelAccrual (docs/interface.md#accrual-moves), each as its
 * declaration says (libs/contracts/src/bpm/accrual-moves.ts): the states it leaves, the one it
 * reaches, its role, its event and what it records; any other move is 409 SVC-SYS-4004, another
 * tenant's accrual 404.
 *
 * A move is one conditional UPDATE (`where accrual_status in (<from>)`): of two concurrent moves of
 * one accrual, the second waits for the first's row lock, finds the state changed and matches
 * nothing, so exactly one wins. The move's event (`accrual.approved|invoiced|cancelled`, with the
 * fields it changed) is written in the same transaction, after the UPDATE matched: a refused move
 * (404, 409) leaves none.
 */
export function accrualMoves(runtimes: ReadonlyMap<string, ResourceRuntime>) {
  const rt = runtimes.get(accrual.path);
  if (!rt) throw new Error('accrual operations need the accrual runtime');
  const { approve, invoice, cancel } = ACCRUAL_MOVES;
  return {
    approveAccrual: requiring(approve.role, (request: ApproveAccrualRequest, ctx) => move(rt, ctx, request.id, approve, undefined)),
    invoiceAccrual: requiring(invoice.role, (request: InvoiceAccrualRequest, ctx) => move(rt, ctx, request.id, invoice, request.invoiceNo)),
    cancelAccrual: requiring(cancel.role, (request: CancelAccrualRequest, ctx) => move(rt, ctx, request.id, cancel, request.reason)),
  };
}

/** What `declared` sets beside the state: the time and who, and the text given (null when absent). */
function recordOf(rt: ResourceRuntime, declared: AccrualMoveDeclaration, given: string | undefined, actor: string, now: Date): Record<string, unknown> {
  return {
    [declared.at]: now,
    ...(declared.by ? { [declared.by]: actor } : {}),
    ...(declared.given ? { [declared.given.field]: optionalText(rt, declared.given.field, given, declared.given.param) } : {}),
  };
}

async function move(rt: ResourceRuntime, ctx: CallContext, key: unknown, move: Move, given: string | undefined): Promise<Message> {
  const now = new Date();
  const actor = actorOf(ctx);
  // the given text is checked (400 naming it) first, then the id
  const record = recordOf(rt, move, given, actor, now);
  const id = toRowValue('id', { kind: 'long', min: 1 }, key);
  const scope = tenantScope(ctx);
  const row = await ctx.em.transactional(async (em) => {
    const meta = em.getMetadata(rt.entity);
    const column = (name: string): string => `"${meta.properties[name]?.fieldNames[0] ?? name}"`;
    // the row before the move, locked so that no other move commits between this read and the
    // UPDATE (404 when not visible): the event's before
    await em.execute(`select 1 from "${meta.schema}"."${meta.tableName}" where ${column('id')} = ? for update`, [id]);
    const before = { ...(await findVisible(rt, em, { ...ctx, em }, id)) };
    const set: Record<string, unknown> = { accrualStatus: move.to, updatedAt: now, updatedBy: actor, ...record };
    const assignments = [...Object.keys(set).map((name) => `${column(name)} = ?`), `${column('version')} = ${column('version')} + 1`];
    const where = [`${column('id')} = ?`, `${column('accrualStatus')} in (${move.from.map(() => '?').join(', ')})`];
    const params: unknown[] = [...Object.values(set), id, ...move.from];
    if (scope !== undefined) {
      where.push(`${column('crProcessId')} = ?`);
      params.push(scope);
    }
    const moved = await em.execute<{ id: unknown }[]>(
      `update "${meta.schema}"."${meta.tableName}" set ${assignments.join(', ')} where ${where.join(' and ')} returning ${column('id')}`,
      params,
    );
    // the row as this transaction sees it: moved, or in a state the move does not leave
    const current = await findVisible(rt, em, { ...ctx, em }, id);
    if (moved.length === 0) throw new DomainError('SVC-SYS-4004', 'transition.invalid');
    await recordEvent(em, {
      type: move.event,
      crProcessId: Number(current.crProcessId),
      key: keyText(rt.resource, current),
      version: Number(current.version),
      actor,
      changes: changesOf(rt.resource, before, current),
    });
    return current;
  });
  const [message] = await toMessages(rt, [row], ctx);
  return message ?? {};
}

/** An optional text of a move's request, checked as the accrual field it is stored in (`null` when absent). */
function optionalText(rt: ResourceRuntime, field: string, value: string | undefined, param = field): string | null {
  const spec = allFields(rt.resource)[field];
  if (value === undefined || !spec || !isScalar(spec)) return null;
  return toRowValue(param, { ...spec, readOnly: false }, value) as string;
}
