import {
  DomainError,
  STREAMS,
  checkTurkishIban,
  commissionKurus,
  domainEvent,
  type EventData,
  type RequestWithdrawalCommand,
} from '@transfergate/contracts';
import { reserveRefusal, withdrawalTransfers, type MerchantBalance } from '../domain/merchant-ledger.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import type { Decided } from './decision.js';
import { merchantRefusal } from './merchant-limits.js';
import { originOf } from './request-origin.js';

/** What a new withdrawal is decided from, loaded by its handler. */
export interface WithdrawalRequestContext {
  transactionId: string;
  /** The merchant's rules (active, amount range, fee, overdraft limit). */
  merchant: EventData<'MerchantConfigured'> | undefined;
  /** The contract's integer id, drawn only once the rules accept (a sequence value). */
  number: number;
}

/** The beneficiary's IBAN as recorded, or the refusal of an invalid one (checked before anything is read). */
export function withdrawalIbanOf(command: RequestWithdrawalCommand['input']): Decided<string> {
  const iban = checkTurkishIban(command.iban);
  return iban.ok ? iban.iban : new DomainError('invalid_iban', iban.reason);
}

/**
 * What refuses a withdrawal before a number is drawn for it: the merchant inactive or the amount out
 * of its range, or amount + fee beyond the balance and overdraft. `ledger` undefined checks the
 * merchant's rules only (before the balance is read). The same rules decideRequestWithdrawal applies.
 */
export function withdrawalRefusal(
  command: RequestWithdrawalCommand['input'],
  merchant: EventData<'MerchantConfigured'> | undefined,
  ledger: MerchantBalance | undefined,
): DomainError | undefined {
  const refusal = merchantRefusal(merchant, command.amountKurus);
  if (refusal || !ledger) return refusal;
  const feeKurus = commissionKurus(command.amountKurus, merchant!.withdrawalCommissionBp);
  return reserveRefusal(ledger, command.amountKurus + feeKurus, BigInt(merchant!.overdraftLimitKurus));
}

/**
 * A new withdrawal: amount + the merchant's fee reserved on its balance (pending debits) in the
 * same atomic append that creates the transaction, at the ledger version the balance was read at,
 * so a reservation never exists without its transaction or the other way round.
 */
export function decideRequestWithdrawal(
  command: RequestWithdrawalCommand['input'],
  state: { ledger: MerchantBalance },
  context: WithdrawalRequestContext,
): Decided<PendingWrite[]> {
  const iban = withdrawalIbanOf(command);
  if (iban instanceof DomainError) return iban;
  const refusal = withdrawalRefusal(command, context.merchant, state.ledger);
  if (refusal) return refusal;
  const { transactionId } = context;
  const feeKurus = commissionKurus(command.amountKurus, context.merchant!.withdrawalCommissionBp);
  // Object.assign, not a leading spread followed by new keys (slow on Node 20's V8; same keys and order).
  const requested = domainEvent(
    'WithdrawalRequested',
    Object.assign(originOf(command, transactionId, context.number), { feeKurus: feeKurus.toString(), iban }),
  );
  const reserved = domainEvent('TransfersReserved', {
    transactionId,
    merchantId: command.merchantId,
    transfers: withdrawalTransfers(transactionId, command.merchantId, command.amountKurus, feeKurus),
  });
  return [
    { streamId: STREAMS.transaction(transactionId), expectedVersion: 'no_stream', events: [requested] },
    { streamId: STREAMS.merchantLedger(command.merchantId), expectedVersion: state.ledger.version, events: [reserved] },
  ];
}
