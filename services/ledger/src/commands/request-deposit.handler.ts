import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
  RequestDepositCommand,
  STREAMS,
  type TransactionView,
  transactionIdFor,
} from '@transfergate/contracts';
import { WrongExpectedVersionError } from '@transfergate/event-store';
import { decideRequestDeposit } from '../decisions/request-deposit.decide.js';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { newPaymentToken } from './payment-token.js';
import { ReceivingAccountSelector } from './receiving-account.selector.js';
import { isOperationGuidTaken, operationGuidKey } from '../persistence/operation-guid-guard.js';
import { answerClaimed, repeatOrRefusal } from './request-rules.js';
import { evolveWithAppended } from '../domain/transaction.js';
import { screenedEvent } from '../decisions/screen-request.decide.js';
import { RiskIndex } from '../risk/risk-index.js';
import { refuseByRisk } from '../risk/risk-refusal.js';

/** A deposit request: load its context, decide (decideRequestDeposit), claim a new stream with no_stream. */
@CommandHandler(RequestDepositCommand)
export class RequestDepositHandler implements ICommandHandler<RequestDepositCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly accounts: ReceivingAccountSelector,
    private readonly risk: RiskIndex,
    @Inject(LEDGER_SETTINGS) private readonly settings: LedgerSettings,
  ) {}

  async execute({ input }: RequestDepositCommand): Promise<TransactionView> {
    const transactionId = transactionIdFor(input.providerId, input.externalId);
    // Hot path: one read for the rules, the account and the number, then the append whose
    // no_stream expectation is the duplicate check. The stream is read only when something says no,
    // so a repeat still gets its first answer even if the rules have changed since.
    const { merchant, account, number, day } = await this.accounts.depositContext(
      input.merchantId,
      input.amountKurus,
      input.preferredBankCode,
    );
    const nowMs = Date.now();
    const event = decideRequestDeposit(input, {
      transactionId,
      merchant,
      account,
      number,
      nowMs,
      depositTtlMs: this.settings.depositTtlMs,
      paymentToken: newPaymentToken(),
    });
    if (event instanceof DomainError) {
      return repeatOrRefusal(this.repository, transactionId, input.requestFingerprint, event);
    }
    // Risk rules from memory (RiskIndex): refused (recorded, answered risk_refused), or held or
    // flagged (the hit follows the request event in the transaction's stream).
    const screened = {
      kind: 'deposit' as const,
      merchantId: input.merchantId,
      infrastructureId: input.infrastructureId,
      amountKurus: input.amountKurus,
      customer: input.customer,
      ip: input.actor.ip,
    };
    const screening = this.risk.screenNow(screened, nowMs) ?? (await this.risk.screen(screened, nowMs));
    const origin = {
      transactionId,
      merchantId: input.merchantId,
      externalId: input.externalId,
      kind: 'deposit' as const,
    };
    if (screening.action === 'refuse') {
      return refuseByRisk(
        this.repository,
        { ...origin, fingerprint: input.requestFingerprint, actor: input.actor },
        screening.hits,
      );
    }
    const request = {
      streamId: STREAMS.transaction(transactionId),
      expectedVersion: 'no_stream' as const,
      events: screening.action ? [event, screenedEvent(origin, screening)] : [event],
    };
    const deposit = { transactionId, bankAccountId: account!.bankAccountId, day, amountKurus: input.amountKurus };
    try {
      // A held or flagged deposit (rare) takes the ordinary append, answered once projected: the row
      // written alongside is a new transaction's with its request event only.
      let view: TransactionView;
      if (screening.action) {
        await this.repository.append([request], input.actor, operationGuidKey(input));
        view = evolveWithAppended(undefined, request.streamId, request.events).view;
      } else {
        view = await this.repository.appendNewDeposit(request, input.actor, deposit, operationGuidKey(input));
      }
      this.risk.noteAccepted(screened, nowMs);
      return view;
    } catch (error) {
      const guidTaken = isOperationGuidTaken(error);
      if (!guidTaken && !(error instanceof WrongExpectedVersionError)) throw error;
      // The external id exists already (a repeat, or a concurrent request won the claim), or
      // another request holds this OperationGuid (a repeat of this one holds it too: its first answer).
      return answerClaimed(this.repository, transactionId, input.requestFingerprint, guidTaken);
    }
  }
}
