import { defineHooks } from '@platform/service-kit/crud/runtime.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { accrual } from '@platform/contracts/bpm/accrual.ts';

/**
 * An accrual is written only while it is PENDING: once approved, invoiced or cancelled its amount
 * and period are what was agreed, and only the moves change it (409 SVC-SYS-4004, docs/decisions.md).
 * It may be deleted while PENDING or CANCELLED; an APPROVED or INVOICED one is kept. The engine
 * hands both hooks the row locked (SELECT ... FOR UPDATE), and a move is one conditional UPDATE of
 * that row, so a write and a move never interleave.
 */
export const accrualHooks = defineHooks(accrual, {
  async beforeWrite(_values, _input, _ctx, mode, current) {
    if (mode === 'update' && current && current.accrualStatus !== 'PENDING') {
      throw new DomainError('SVC-SYS-4004', 'transition.invalid');
    }
  },
  async beforeDelete(row) {
    if (row.accrualStatus === 'APPROVED' || row.accrualStatus === 'INVOICED') {
      throw new DomainError('SVC-SYS-4004', 'transition.invalid');
    }
  },
});
