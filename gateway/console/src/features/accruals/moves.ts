/**
 * The accrual's moves as bpm-svc allows them (bpm-svc/src/resources/accrual/accrual.operations.ts,
 * docs/interface.md#partner-operations): the states each leaves and the role it needs. The console
 * offers a move only where both allow it; the service refuses anything else anyway (409, 403).
 */
export type AccrualMove = 'approve' | 'invoice' | 'cancel';

export const ACCRUAL_MOVES: Readonly<Record<AccrualMove, { from: readonly string[]; role: string }>> = {
  approve: { from: ['PENDING'], role: 'accrual:approve' },
  invoice: { from: ['APPROVED'], role: 'accrual:invoice' },
  cancel: { from: ['PENDING', 'APPROVED'], role: 'accrual:cancel' },
};

/** The moves an accrual in `state` allows to a user who `can` what its roles grant, in button order. */
export function offeredMoves(state: unknown, can: (role: string) => boolean): AccrualMove[] {
  return (Object.keys(ACCRUAL_MOVES) as AccrualMove[]).filter(
    (move) => typeof state === 'string' && ACCRUAL_MOVES[move].from.includes(state) && can(ACCRUAL_MOVES[move].role),
  );
}
