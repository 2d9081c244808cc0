import type {
  PanelTransaction,
  PanelTransactionDetail as PanelTransactionDetailAnswer,
} from '@transfergate/contracts/panel';

/** A transaction as GET /panel/transactions answers it (PanelTransactionSchema; amounts in TRY). */
export type { PanelTransaction, PanelTransactionEvent } from '@transfergate/contracts/panel';

/** GET /panel/transactions/:id (PanelTransactionDetailSchema). */
export type PanelTransactionDetail = Omit<PanelTransactionDetailAnswer, 'history'> & {
  /** Absent while react-admin shows the list's copy of the record as a placeholder. */
  history?: PanelTransactionDetailAnswer['history'];
};

type TransactionState = PanelTransaction['state'];

/** States in which an operator can still act. */
export const OPEN_STATES: Record<PanelTransaction['type'], readonly TransactionState[]> = {
  deposit: ['awaiting_payment', 'payment_reported'],
  withdrawal: ['pending', 'processing'],
};

export const STATES: Record<PanelTransaction['type'], readonly TransactionState[]> = {
  deposit: ['awaiting_payment', 'payment_reported', 'held', 'approved', 'rejected', 'expired'],
  withdrawal: ['pending', 'processing', 'held', 'approved', 'rejected'],
};

/** Held by a risk rule: the risk queue's state, released or rejected by an operator (not approved). */
export const HELD_STATE: TransactionState = 'held';
