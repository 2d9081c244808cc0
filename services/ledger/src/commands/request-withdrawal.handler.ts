import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
  RequestWithdrawalCommand,
  STREAMS,
  checkTurkishIban,
  commissionKurus,
  domainEvent,
  type TransactionView,
  transactionIdFor,
} from '@transfergate/contracts';
import { WrongExpectedVersionError } from '@transfergate/event-store';
import { assertCanReserve, withdrawalTransfers } from '../domain/merchant-ledger.js';
import { MAX_CONFLICT_RETRIES } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { isOperationGuidTaken, operationGuidKey } from '../persistence/operation-guid-guard.js';
import { MerchantRules } from './merchant-rules.js';
import type { MerchantRecord } from './receiving-account.selector.js';
import { answerClaimed, assertMerchantAllows, originOf, repeatOrRefusal, viewAfterRequest } from './request-rules.js';

/**
 * Decides a withdrawal request: amount + fee reserved on the merchant balance (two-phase, pending
 * debits) in the same atomic append that creates the transaction, so a reservation never exists
 * without its transaction or the other way round.
 */
@CommandHandler(RequestWithdrawalCommand)
export class RequestWithdrawalHandler implements ICommandHandler<RequestWithdrawalCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly rules: MerchantRules,
  ) {}

  async execute({ input }: RequestWithdrawalCommand): Promise<TransactionView> {
    const iban = checkTurkishIban(input.iban);
    if (!iban.ok) throw new DomainError('invalid_iban', iban.reason);
    const transactionId = transactionIdFor(input.providerId, input.externalId);
    const txnStream = STREAMS.transaction(transactionId);
    // As a deposit: the rules from memory, then the append whose no_stream expectation is the
    // duplicate check. The transaction's stream is read only when something says no, so a repeat
    // still gets its first answer even if the rules or the balance have changed since.
    let merchant: MerchantRecord;
    try {
      merchant = assertMerchantAllows(await this.rules.of(input.merchantId), input.amountKurus);
    } catch (refusal) {
      return repeatOrRefusal(this.repository, transactionId, input.requestFingerprint, refusal);
    }
    const feeKurus = commissionKurus(input.amountKurus, merchant.withdrawalCommissionBp);
    let number: number | undefined;
    const guidKey = operationGuidKey(input);

    // One reservation of this merchant at a time in this process (MerchantReservationQueue).
    return this.repository.reservations.run(input.merchantId, async () => {
      for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
        const ledger = await this.repository.loadMerchantLedger(input.merchantId);
        try {
          assertCanReserve(ledger, input.amountKurus + feeKurus, BigInt(merchant.overdraftLimitKurus));
        } catch (refusal) {
          return repeatOrRefusal(this.repository, transactionId, input.requestFingerprint, refusal);
        }
        number ??= await this.repository.nextTransactionNumber();
        // Object.assign, not a leading spread followed by new keys (slow on Node 20's V8; same keys and order).
        const requested = domainEvent(
          'WithdrawalRequested',
          Object.assign(originOf(input, transactionId, number), { feeKurus: feeKurus.toString(), iban: iban.iban }),
        );
        const reserved = domainEvent('TransfersReserved', {
          transactionId,
          merchantId: input.merchantId,
          transfers: withdrawalTransfers(transactionId, input.merchantId, input.amountKurus, feeKurus),
        });
        try {
          await this.repository.append(
            [
              { streamId: txnStream, expectedVersion: 'no_stream', events: [requested] },
              {
                streamId: STREAMS.merchantLedger(input.merchantId),
                expectedVersion: ledger.version,
                events: [reserved],
              },
            ],
            input.actor,
            guidKey,
          );
          return viewAfterRequest(requested);
        } catch (error) {
          // The external id exists already (a repeat, or a concurrent request won the claim),
          // another request holds this OperationGuid (a repeat of this one holds it too: its first
          // answer), or another change to this merchant's balance landed first (re-check the
          // balance and try again).
          const guidTaken = isOperationGuidTaken(error);
          const claimed = error instanceof WrongExpectedVersionError && error.streamId === txnStream;
          if (guidTaken || claimed) {
            return answerClaimed(this.repository, transactionId, input.requestFingerprint, guidTaken);
          }
          if (!(error instanceof WrongExpectedVersionError)) throw error;
        }
      }
      // A repeat whose every try met a moved balance first is still a repeat.
      const conflict = new DomainError(
        'concurrency_conflict',
        'merchant balance is changing too fast; retry the request',
      );
      return repeatOrRefusal(this.repository, transactionId, input.requestFingerprint, conflict);
    });
  }
}
