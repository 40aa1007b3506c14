/**
 * The accrual's moves as their declaration gives them (libs/contracts/src/bpm/accrual-moves.ts, which
 * bpm-svc guards by): the states each leaves and the role it needs. The console offers a move only
 * where both allow it; the service refuses anything else anyway (409, 403).
 */
import { ACCRUAL_MOVES, type AccrualMove } from '@platform/contracts/bpm/accrual-moves.ts';

export type { AccrualMove };

/** The moves an accrual in `state` allows to a user who `can` what its roles grant, in button order. */
export function offeredMoves(state: unknown, can: (role: string) => boolean): AccrualMove[] {
  return (Object.keys(ACCRUAL_MOVES) as AccrualMove[]).filter((move) => {
    const from: readonly string[] = ACCRUAL_MOVES[move].from;
    return typeof state === 'string' && from.includes(state) && can(ACCRUAL_MOVES[move].role);
  });
}
