import { defineHooks } from '@platform/service-kit/crud/runtime.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { accrual } from '@platform/contracts/bpm/accrual.ts';
import { ACCRUAL_LIFECYCLE, type AccrualState } from '@platform/contracts/bpm/accrual-moves.ts';

/**
 * An accrual is written only in the states its declaration allows (libs/contracts/src/bpm/
 * accrual-moves.ts: PENDING): once approved, invoiced or cancelled its amount and period are what
 * was agreed, and only the moves change it (409 SVC-SYS-4004, docs/interface.md#accrual-moves). It may be
 * deleted only where the declaration says (PENDING or CANCELLED); an APPROVED or INVOICED one is
 * kept. The engine hands both hooks the row locked (SELECT ... FOR UPDATE), and a move is one
 * conditional UPDATE of that row, so a write and a move never interleave.
 */
export const accrualHooks = defineHooks(accrual, {
  async beforeWrite(_values, _input, _ctx, mode, current) {
    if (mode === 'update' && current && !allows(ACCRUAL_LIFECYCLE.editableIn, current.accrualStatus)) {
      throw new DomainError('SVC-SYS-4004', 'transition.invalid');
    }
  },
  async beforeDelete(row) {
    if (!allows(ACCRUAL_LIFECYCLE.deletableIn, row.accrualStatus)) {
      throw new DomainError('SVC-SYS-4004', 'transition.invalid');
    }
  },
});

function allows(states: readonly AccrualState[], state: string | null | undefined): boolean {
  return states.some((allowed) => allowed === state);
}
