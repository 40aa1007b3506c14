/**
 * The accrual's state machine, declared once (docs/interface.md#accrual-moves): its states, the one a
 * record is created in, the states an edit or a delete is allowed in, and each move with the states
 * it leaves, the one it reaches, the role it needs, the event it writes and what it records beside
 * the state. bpm-svc guards by it (accrual.operations.ts, accrual.hooks.ts), the console offers the
 * moves it allows, the API document words each move from it, and docs/interface.md shows it
 * (scripts/docs-gen.ts). It imports nothing: the console's bundle loads it.
 */

export const ACCRUAL_STATES = ['PENDING', 'APPROVED', 'INVOICED', 'CANCELLED'] as const;
export type AccrualState = (typeof ACCRUAL_STATES)[number];

/** One move: `POST /api/accrual/{id}/<move>`, the RPC `<Move>Accrual`. */
export interface AccrualMoveDeclaration {
  /** The states it leaves; from any other it is 409 SVC-SYS-4004. */
  from: readonly AccrualState[];
  to: AccrualState;
  /** The role it needs (`accrual:write` grants no move). */
  role: string;
  /** Its event, written in place of `accrual.updated`. */
  event: `accrual.${string}`;
  /** The field it stamps with the time of the move. */
  at: string;
  /** The field it stamps with the userCode of who moved it, if any. */
  by?: string;
  /** The optional body field it takes, the accrual field that keeps it, and the document's words for it. */
  given?: { param: string; field: string; description: string };
}

/** Where an accrual starts, and the states in which its CRUD update and delete are allowed (else 409 SVC-SYS-4004). */
export const ACCRUAL_LIFECYCLE = {
  initial: 'PENDING',
  /** Once approved, its amount and period are what was agreed: only the moves change it. */
  editableIn: ['PENDING'],
  /** An APPROVED or INVOICED accrual records what is owed or billed, and is kept. */
  deletableIn: ['PENDING', 'CANCELLED'],
} as const satisfies { initial: AccrualState; editableIn: readonly AccrualState[]; deletableIn: readonly AccrualState[] };

/** The moves, in the order the console offers them. */
export const ACCRUAL_MOVES = {
  approve: { from: ['PENDING'], to: 'APPROVED', role: 'accrual:approve', event: 'accrual.approved', at: 'approvedAt', by: 'approvedBy' },
  invoice: {
    from: ['APPROVED'],
    to: 'INVOICED',
    role: 'accrual:invoice',
    event: 'accrual.invoiced',
    at: 'invoicedAt',
    given: { param: 'invoiceNo', field: 'invoiceNo', description: 'Invoice number to record.' },
  },
  cancel: {
    from: ['PENDING', 'APPROVED'],
    to: 'CANCELLED',
    role: 'accrual:cancel',
    event: 'accrual.cancelled',
    at: 'cancelledAt',
    given: { param: 'reason', field: 'cancelReason', description: 'Reason to record.' },
  },
} as const satisfies Record<string, AccrualMoveDeclaration>;

export type AccrualMove = keyof typeof ACCRUAL_MOVES;

/** The moves by name, in declaration order, typed as declarations. */
export function accrualMoveList(): [AccrualMove, AccrualMoveDeclaration][] {
  return Object.entries(ACCRUAL_MOVES) as [AccrualMove, AccrualMoveDeclaration][];
}

/** The fields a move sets beside `accrualStatus`, in the order it records them. */
export function recordedFields(move: AccrualMoveDeclaration): string[] {
  return [move.at, ...(move.by ? [move.by] : []), ...(move.given ? [move.given.field] : [])];
}
