import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import {
  DomainError,
  RequestDepositCommand,
  STREAMS,
  domainEvent,
  type TransactionView,
} from '@transfergate/contracts';
import { WrongExpectedVersionError } from '@transfergate/event-store';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { transactionIdFor } from '../persistence/ids.js';
import { ReceivingAccountSelector } from './receiving-account.selector.js';
import { assertAmountAllowed, originOf, replayOrDuplicate, viewAfterRequest } from './request-rules.js';

/** Decides a deposit request: merchant rules, receiving account, a new stream claimed with no_stream. */
@CommandHandler(RequestDepositCommand)
export class RequestDepositHandler implements ICommandHandler<RequestDepositCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly accounts: ReceivingAccountSelector,
    @Inject(LEDGER_SETTINGS) private readonly settings: LedgerSettings,
  ) {}

  async execute({ input }: RequestDepositCommand): Promise<TransactionView> {
    const transactionId = transactionIdFor(input.providerId, input.externalId);
    const existing = await this.repository.loadTransaction(transactionId);
    if (existing) return replayOrDuplicate(existing, input.requestFingerprint);

    await assertAmountAllowed(this.repository, input.merchantId, input.amountKurus);
    const account = await this.accounts.choose(input.amountKurus, input.preferredBankCode);
    const number = await this.repository.nextTransactionNumber();
    const event = domainEvent('DepositRequested', {
      ...originOf(input, transactionId, number),
      receivingAccount: {
        bankAccountId: account.bankAccountId,
        bank: account.bank,
        bankCode: account.bankCode,
        holderName: account.holderName,
        iban: account.iban,
        fast: account.fast,
      },
      // 192 bits: the payment page URL is a bearer capability for this one deposit.
      paymentToken: randomBytes(24).toString('base64url'),
      expiresAt: new Date(Date.now() + this.settings.depositTtlMs).toISOString(),
    });
    try {
      await this.repository.append(
        [{ streamId: STREAMS.transaction(transactionId), expectedVersion: 'no_stream', events: [event] }],
        input.actor,
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      // A concurrent request with the same external id won the claim: answer as a repeat.
      const winner = await this.repository.loadTransaction(transactionId);
      if (!winner) throw new DomainError('concurrency_conflict', 'transaction was claimed but cannot be read');
      return replayOrDuplicate(winner, input.requestFingerprint);
    }
    return viewAfterRequest(event);
  }
}
