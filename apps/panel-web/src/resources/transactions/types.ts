/** A transaction as GET /panel/transactions answers it (PanelTransactionSchema; amounts in TRY). */
export interface PanelTransaction {
  id: string;
  number: number;
  type: 'deposit' | 'withdrawal';
  state: string;
  merchantId: string;
  providerId: string;
  infrastructureId: string;
  form: string;
  externalId: string;
  amount: number;
  originalAmount: number;
  fee: number;
  currency: 'TRY';
  customer: { fullName: string; username?: string; userId?: string };
  iban?: string;
  bankAccountId?: string;
  bankAccount?: { bankAccountId: string; bank: string; holderName: string; iban: string; fast: boolean };
  expiresAt?: string;
  assignee?: string;
  reason?: string;
  createdAt: string;
  updatedAt: string;
}

export interface PanelTransactionEvent {
  type: string;
  version: number;
  data: Record<string, unknown>;
  metadata: { actor?: string; source?: string; ip?: string };
  createdAt: string;
}

export interface PanelTransactionDetail extends PanelTransaction {
  /** Absent while react-admin shows the list's copy of the record as a placeholder. */
  history?: PanelTransactionEvent[];
}

/** States in which an operator can still act. */
export const OPEN_STATES: Record<PanelTransaction['type'], readonly string[]> = {
  deposit: ['awaiting_payment', 'payment_reported'],
  withdrawal: ['pending', 'processing'],
};

export const STATES: Record<PanelTransaction['type'], readonly string[]> = {
  deposit: ['awaiting_payment', 'payment_reported', 'approved', 'rejected', 'expired'],
  withdrawal: ['pending', 'processing', 'approved', 'rejected'],
};
