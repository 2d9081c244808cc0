import { errorCodeOf } from '../../api/error-text';
import { panelFetch } from '../../api/http';
import { formatDateTime } from '../../format/time';
import type { PanelTransaction, PanelTransactionDetail } from './types';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The ledger's answers when the transaction moved on before this operator's decision arrived. */
const LOST_RACE_CODES = new Set(['transaction_final', 'invalid_state_transition']);
const DECISIONS: Record<string, 'approved' | 'rejected' | 'expired'> = {
  TransactionApproved: 'approved',
  TransactionRejected: 'rejected',
  TransactionExpired: 'expired',
};

/**
 * When another operator (or the expiry, or a bank webhook) decided first, says who decided what and
 * when, from the transaction's history; null for any other failure.
 */
export async function explainLostRace(
  record: Pick<PanelTransaction, 'id' | 'number'>,
  error: unknown,
  translate: Translate,
): Promise<string | null> {
  const code = errorCodeOf(error);
  if (!code || !LOST_RACE_CODES.has(code)) return null;
  let detail: PanelTransactionDetail;
  try {
    detail = await panelFetch<PanelTransactionDetail>(`/panel/transactions/${encodeURIComponent(record.id)}`);
  } catch {
    return null;
  }
  const decisive = [...(detail.history ?? [])].reverse().find((event) => DECISIONS[event.type]);
  if (!decisive) return null;
  const decision = translate(`tg.race.${DECISIONS[decisive.type]}`);
  const time = formatDateTime(decisive.createdAt);
  const operator = decisive.metadata.actorName;
  if (operator) return translate('tg.race.decided', { number: record.number, decision, operator, time });
  const source = decisive.metadata.source ?? 'system';
  return translate('tg.race.decided_by_system', {
    number: record.number,
    decision,
    source: translate(`tg.sources.${source}`, { _: source }),
    time,
  });
}
