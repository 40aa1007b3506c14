import { defineHooks } from '@platform/service-kit/crud/runtime.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { accrual } from '@platform/contracts/bpm/accrual.ts';
import { lockOf } from '@platform/contracts/record-locks.ts';

/**
 * An accrual is written only in the states its declaration allows (libs/contracts/src/bpm/
 * accrual-moves.ts: PENDING, as libs/contracts/src/record-locks.ts gives it to the console too): once approved, invoiced or cancelled its amount and period are what
 * was agreed, and only the moves change it (409 SVC-SYS-4004, docs/interface.md#accrual-moves). It may be
 * deleted only where the declaration says (PENDING or CANCELLED); an APPROVED or INVOICED one is
 * kept. The engine hands both hooks the row locked (SELECT ... FOR UPDATE), and a move is one
 * conditional UPDATE of that row, so a write and a move never interleave.
 */
export const accrualHooks = defineHooks(accrual, {
  async beforeWrite(_values, _input, _ctx, mode, current) {
    if (mode === 'update' && current && lockOf(accrual.path, 'update', current)) {
      throw new DomainError('SVC-SYS-4004', 'transition.invalid');
    }
  },
  async beforeDelete(row) {
    if (lockOf(accrual.path, 'delete', row)) {
      throw new DomainError('SVC-SYS-4004', 'transition.invalid');
    }
  },
});
