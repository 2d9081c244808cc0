import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
  RequestWithdrawalCommand,
  STREAMS,
  type TransactionView,
  transactionIdFor,
} from '@transfergate/contracts';
import { WrongExpectedVersionError } from '@transfergate/event-store';
import { isRefusal } from '../decisions/decision.js';
import {
  decideRequestWithdrawal,
  withdrawalIbanOf,
  withdrawalRefusal,
} from '../decisions/request-withdrawal.decide.js';
import { MAX_CONFLICT_RETRIES } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { isOperationGuidTaken, operationGuidKey } from '../persistence/operation-guid-guard.js';
import { MerchantRules } from './merchant-rules.js';
import { answerClaimed, repeatOrRefusal } from './request-rules.js';
import { evolveWithAppended } from '../domain/transaction.js';
import { screenedEvent } from '../decisions/screen-request.decide.js';
import { RiskIndex } from '../risk/risk-index.js';
import { refuseByRisk } from '../risk/risk-refusal.js';

/**
 * A withdrawal request: load the merchant's rules and balance, decide (decideRequestWithdrawal:
 * amount + fee reserved in the same append that creates the transaction), append.
 */
@CommandHandler(RequestWithdrawalCommand)
export class RequestWithdrawalHandler implements ICommandHandler<RequestWithdrawalCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly rules: MerchantRules,
    private readonly risk: RiskIndex,
  ) {}

  async execute({ input }: RequestWithdrawalCommand): Promise<TransactionView> {
    const iban = withdrawalIbanOf(input);
    if (isRefusal(iban)) throw iban;
    const transactionId = transactionIdFor(input.providerId, input.externalId);
    const txnStream = STREAMS.transaction(transactionId);
    // As a deposit: the rules from memory, then the append whose no_stream expectation is the
    // duplicate check. The transaction's stream is read only when something says no, so a repeat
    // still gets its first answer even if the rules or the balance have changed since.
    const merchant = await this.rules.of(input.merchantId);
    const refusedByRules = withdrawalRefusal(input, merchant, undefined);
    if (refusedByRules)
      return repeatOrRefusal(this.repository, transactionId, input.requestFingerprint, refusedByRules);
    // Risk rules from memory, before anything is reserved: refused (recorded, risk_refused), held
    // (the reservation stays until an operator releases or rejects it) or flagged.
    const nowMs = Date.now();
    const screened = {
      kind: 'withdrawal' as const,
      merchantId: input.merchantId,
      infrastructureId: input.infrastructureId,
      amountKurus: input.amountKurus,
      customer: input.customer,
      iban,
      ip: input.actor.ip,
    };
    const screening = this.risk.screenNow(screened, nowMs) ?? (await this.risk.screen(screened, nowMs));
    const origin = {
      transactionId,
      merchantId: input.merchantId,
      externalId: input.externalId,
      kind: 'withdrawal' as const,
    };
    if (screening.action === 'refuse') {
      return refuseByRisk(
        this.repository,
        { ...origin, fingerprint: input.requestFingerprint, actor: input.actor },
        screening.hits,
      );
    }
    let number: number | undefined;
    const guidKey = operationGuidKey(input);

    // One reservation of this merchant at a time in this process (MerchantReservationQueue).
    return this.repository.reservations.run(input.merchantId, async () => {
      for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
        const ledger = await this.repository.loadMerchantLedger(input.merchantId);
        // A number is drawn only for a request the balance takes.
        const short = withdrawalRefusal(input, merchant, ledger);
        if (short) return repeatOrRefusal(this.repository, transactionId, input.requestFingerprint, short);
        number ??= await this.repository.nextTransactionNumber();
        const writes = decideRequestWithdrawal(input, { ledger }, { transactionId, merchant, number });
        if (writes instanceof DomainError) {
          return repeatOrRefusal(this.repository, transactionId, input.requestFingerprint, writes);
        }
        if (screening.action) writes[0]!.events.push(screenedEvent(origin, screening));
        try {
          await this.repository.append(writes, input.actor, guidKey);
          this.risk.noteAccepted(screened, nowMs);
          return evolveWithAppended(undefined, writes[0]!.streamId, writes[0]!.events).view;
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
