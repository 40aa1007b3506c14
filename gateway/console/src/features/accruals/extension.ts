import type { ConsoleExtension } from '../../extensions/types.ts';
import { AccrualActions } from './accrual-actions.tsx';
import './accruals.css';

/** The accrual's moves on its page and rows (approve, invoice, cancel), by state and role. */
export const accrualsExtension: ConsoleExtension = {
  resources: { accrual: { recordActions: AccrualActions } },
};
