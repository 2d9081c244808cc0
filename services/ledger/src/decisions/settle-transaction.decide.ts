import {
  commissionKurus,
  domainEvent,
  type EventData,
  type Transfer,
  type TransactionView,
} from '@transfergate/contracts';
import { depositTransfers } from '../domain/merchant-ledger.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { settlementWrite } from './decision.js';

/** What a settlement is decided from, loaded by the handler of the approval or rejection. */
export interface SettlementContext {
  /** The merchant's rules: a deposit's commission. */
  merchant: EventData<'MerchantConfigured'> | undefined;
  /** A withdrawal's open reservation on its merchant's ledger. */
  reservation: Transfer[] | undefined;
}

/**
 * The postings on the merchant's ledger that settle a transaction an approval or rejection ends:
 * an approved deposit is credited less the merchant's deposit commission; an approved withdrawal
 * posts exactly what it reserved (amount and fee); a rejected withdrawal voids its reservation; a
 * rejected deposit posts nothing (undefined). Approval and rejection decide it in the same step as
 * their own event, so the two are appended atomically.
 */
export function decideSettlement(
  outcome: 'approved' | 'rejected',
  view: TransactionView,
  context: SettlementContext,
): PendingWrite | undefined {
  if (view.type === 'deposit') {
    if (outcome === 'rejected') return undefined;
    const amount = BigInt(view.amountKurus);
    const commission = commissionKurus(amount, context.merchant?.depositCommissionBp ?? 0);
    return settlementWrite(
      view.merchantId,
      domainEvent('TransfersPosted', {
        transactionId: view.transactionId,
        merchantId: view.merchantId,
        transfers: depositTransfers(
          view.transactionId,
          view.merchantId,
          view.bankAccount!.bankAccountId,
          amount,
          commission,
        ),
      }),
    );
  }
  if (outcome === 'rejected') {
    return settlementWrite(
      view.merchantId,
      domainEvent('ReservationVoided', { transactionId: view.transactionId, merchantId: view.merchantId }),
    );
  }
  const reservation = context.reservation;
  if (!reservation) throw new Error(`withdrawal ${view.transactionId} has no open reservation`);
  return settlementWrite(
    view.merchantId,
    domainEvent('ReservationPosted', {
      transactionId: view.transactionId,
      merchantId: view.merchantId,
      transfers: reservation,
    }),
  );
}
