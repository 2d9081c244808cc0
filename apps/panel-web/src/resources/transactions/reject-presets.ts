import type { PanelTransaction } from './types';

/** Common rejection reasons per type (texts in tg.reject.presets.*); the operator can still type any reason. */
export const REJECT_PRESETS: Record<PanelTransaction['type'], readonly string[]> = {
  deposit: ['not_received', 'amount_differs', 'name_differs', 'duplicate', 'customer_cancelled'],
  withdrawal: ['iban_mismatch', 'duplicate', 'customer_cancelled'],
};
