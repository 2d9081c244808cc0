import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  ApproveTransactionCommand,
  AssignTransactionCommand,
  ChangeAmountCommand,
  DomainError,
  ExpireTransactionCommand,
  RecordWebhookAmountMismatchCommand,
  RejectTransactionCommand,
  ReportPaymentCommand,
  STREAMS,
  commissionKurus,
  domainEvent,
  type ActorRef,
  type TransactionView,
} from '@transfergate/contracts';
import { WrongExpectedVersionError } from '@transfergate/event-store';
import {
  assertCanReserve,
  depositTransfers,
  withdrawalTransfers,
  type MerchantBalance,
} from '../domain/merchant-ledger.js';
import { assertMove, evolveWithAppended, type TransactionAggregate } from '../domain/transaction.js';
import { MAX_CONFLICT_RETRIES } from '../ledger.settings.js';
import { LedgerRepository, type PendingWrite } from '../persistence/ledger-repository.js';
import { MerchantRules } from './merchant-rules.js';

interface Decision {
  /** `ledger`: the merchant's balance, with this transaction's open reservation if it has one. */
  writes: (txnVersion: number, ledger: () => Promise<MerchantBalance>) => Promise<PendingWrite[]>;
}

/**
 * Runs one move on a transaction: load, decide, append with the versions read; on a lost race,
 * load again and decide again (bounded). A second approve of the same transaction therefore sees
 * the final state and is refused with `transaction_final`: it never posts twice.
 */
async function runTransition(
  repository: LedgerRepository,
  transactionId: string,
  actor: ActorRef,
  decide: (current: TransactionAggregate) => Decision,
): Promise<TransactionView> {
  for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
    const current = await repository.loadTransaction(transactionId);
    if (!current) throw new DomainError('transaction_not_found', 'no such transaction');
    let ledger: MerchantBalance | undefined;
    const loadLedger = async () =>
      (ledger ??= await repository.loadMerchantLedger(current.view.merchantId, transactionId));
    const writes = await decide(current).writes(current.version, loadLedger);
    try {
      await repository.append(writes, actor);
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) continue;
      throw error;
    }
    const txnStream = STREAMS.transaction(transactionId);
    const next = evolveWithAppended(current, txnStream, writes.find((w) => w.streamId === txnStream)!.events);
    return next.view;
  }
  throw new DomainError('concurrency_conflict', 'transaction is changing too fast; retry');
}

function by(actor: ActorRef) {
  return { source: actor.source, ...(actor.operatorId ? { operatorId: actor.operatorId } : {}) };
}

/**
 * Settling a transaction on its merchant's ledger: a deposit's credit, or posting or voiding the
 * withdrawal's own reservation. None of these can take a balance below its limit, and the
 * transaction stream's expected version (appended atomically with it) already serialises every move
 * of this transaction, so the merchant ledger's version is not checked: approvals of different
 * transactions of one merchant never conflict with each other. Only a reservation (a withdrawal
 * request, an amount change) checks it, because only a reservation depends on the balance.
 */
const settlementWrite = (merchantId: string, event: PendingWrite['events'][number]): PendingWrite => ({
  streamId: STREAMS.merchantLedger(merchantId),
  expectedVersion: 'any',
  events: [event],
});

const txnWrite = (transactionId: string, version: number, events: PendingWrite['events']): PendingWrite => ({
  streamId: STREAMS.transaction(transactionId),
  expectedVersion: version,
  events,
});

@CommandHandler(ApproveTransactionCommand)
export class ApproveTransactionHandler implements ICommandHandler<ApproveTransactionCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly rules: MerchantRules,
  ) {}

  async execute({ input }: ApproveTransactionCommand): Promise<TransactionView> {
    return runTransition(this.repository, input.transactionId, input.actor, (current) => {
      const view = current.view;
      assertMove(view, view.type === 'deposit' && input.allowExpired ? 'approve-expired' : 'approve');
      if (input.paidAmountKurus !== undefined && BigInt(input.paidAmountKurus) !== BigInt(view.amountKurus)) {
        throw new DomainError(
          'amount_mismatch',
          `paid amount ${formatKurus(input.paidAmountKurus)} differs from the transaction's ${formatKurus(view.amountKurus)}: not approved, held for an operator`,
          { amountKurus: view.amountKurus, paidAmountKurus: input.paidAmountKurus },
        );
      }
      return {
        writes: async (version, loadLedger) => {
          const approved = domainEvent('TransactionApproved', {
            transactionId: view.transactionId,
            amountKurus: view.amountKurus,
            fromState: view.state,
            by: by(input.actor),
          });
          if (view.type === 'deposit') {
            const merchant = await this.rules.of(view.merchantId);
            const amount = BigInt(view.amountKurus);
            const commission = commissionKurus(amount, merchant?.depositCommissionBp ?? 0);
            const posted = domainEvent('TransfersPosted', {
              transactionId: view.transactionId,
              merchantId: view.merchantId,
              transfers: depositTransfers(
                view.transactionId,
                view.merchantId,
                view.bankAccount!.bankAccountId,
                amount,
                commission,
              ),
            });
            return [txnWrite(view.transactionId, version, [approved]), settlementWrite(view.merchantId, posted)];
          }
          const ledger = await loadLedger();
          const reservation = ledger.reservation;
          if (!reservation) throw new Error(`withdrawal ${view.transactionId} has no open reservation`);
          const posted = domainEvent('ReservationPosted', {
            transactionId: view.transactionId,
            merchantId: view.merchantId,
            transfers: reservation,
          });
          return [txnWrite(view.transactionId, version, [approved]), settlementWrite(view.merchantId, posted)];
        },
      };
    });
  }
}

@CommandHandler(RecordWebhookAmountMismatchCommand)
export class RecordWebhookAmountMismatchHandler implements ICommandHandler<
  RecordWebhookAmountMismatchCommand,
  TransactionView
> {
  constructor(private readonly repository: LedgerRepository) {}

  /** Once per differing amount while the transaction is open: an upstream's retries add nothing. */
  async execute({ input }: RecordWebhookAmountMismatchCommand): Promise<TransactionView> {
    for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
      const current = await this.repository.loadTransaction(input.transactionId);
      if (!current) throw new DomainError('transaction_not_found', 'no such transaction');
      const view = current.view;
      if (FINAL_STATES.has(view.state)) return view;
      if (await this.repository.hasWebhookAmountMismatch(input.transactionId, input.paidAmountKurus)) return view;
      const event = domainEvent('WebhookAmountMismatched', {
        transactionId: input.transactionId,
        amountKurus: view.amountKurus,
        paidAmountKurus: input.paidAmountKurus,
        by: by(input.actor),
      });
      try {
        await this.repository.append([txnWrite(input.transactionId, current.version, [event])], input.actor);
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) continue;
        throw error;
      }
      return evolveWithAppended(current, STREAMS.transaction(input.transactionId), [event]).view;
    }
    throw new DomainError('concurrency_conflict', 'transaction is changing too fast; retry');
  }
}

const FINAL_STATES = new Set(['approved', 'rejected', 'expired']);

/** Kuruş as TRY with two decimals, for messages. */
function formatKurus(kurus: string): string {
  const value = BigInt(kurus);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')} TRY`;
}

@CommandHandler(RejectTransactionCommand)
export class RejectTransactionHandler implements ICommandHandler<RejectTransactionCommand, TransactionView> {
  constructor(private readonly repository: LedgerRepository) {}

  async execute({ input }: RejectTransactionCommand): Promise<TransactionView> {
    const reason = input.reason.trim();
    if (!reason || reason.length > 500)
      throw new DomainError('validation_failed', 'a reject reason of 1..500 characters is required');
    return runTransition(this.repository, input.transactionId, input.actor, (current) => {
      const view = current.view;
      assertMove(view, 'reject');
      return {
        writes: async (version) => {
          const rejected = domainEvent('TransactionRejected', {
            transactionId: view.transactionId,
            reason,
            fromState: view.state,
            by: by(input.actor),
          });
          if (view.type === 'deposit') return [txnWrite(view.transactionId, version, [rejected])];
          return [
            txnWrite(view.transactionId, version, [rejected]),
            settlementWrite(
              view.merchantId,
              domainEvent('ReservationVoided', { transactionId: view.transactionId, merchantId: view.merchantId }),
            ),
          ];
        },
      };
    });
  }
}

@CommandHandler(ReportPaymentCommand)
export class ReportPaymentHandler implements ICommandHandler<ReportPaymentCommand, TransactionView> {
  constructor(private readonly repository: LedgerRepository) {}

  async execute({ input }: ReportPaymentCommand): Promise<TransactionView> {
    return runTransition(this.repository, input.transactionId, input.actor, (current) => {
      assertMove(current.view, 'report');
      return {
        writes: async (version) => [
          txnWrite(current.view.transactionId, version, [
            domainEvent('PaymentReported', { transactionId: current.view.transactionId }),
          ]),
        ],
      };
    });
  }
}

@CommandHandler(AssignTransactionCommand)
export class AssignTransactionHandler implements ICommandHandler<AssignTransactionCommand, TransactionView> {
  constructor(private readonly repository: LedgerRepository) {}

  async execute({ input }: AssignTransactionCommand): Promise<TransactionView> {
    return runTransition(this.repository, input.transactionId, input.actor, (current) => {
      assertMove(current.view, 'assign');
      return {
        writes: async (version) => [
          txnWrite(current.view.transactionId, version, [
            domainEvent('TransactionAssigned', {
              transactionId: current.view.transactionId,
              assignee: input.assignee,
              by: by(input.actor),
            }),
          ]),
        ],
      };
    });
  }
}

@CommandHandler(ChangeAmountCommand)
export class ChangeAmountHandler implements ICommandHandler<ChangeAmountCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly rules: MerchantRules,
  ) {}

  async execute({ input }: ChangeAmountCommand): Promise<TransactionView> {
    if (input.amountKurus <= 0n) throw new DomainError('invalid_amount', 'amount must be positive');
    // A withdrawal's new amount moves its reservation, which checks the balance at the merchant
    // ledger's version: it waits in the merchant's reservation queue with the withdrawal requests
    // (MerchantReservationQueue) rather than racing them for that version and retrying. An
    // operator's move, so the extra read of the transaction that finds its merchant is cheap.
    const target = await this.repository.loadTransaction(input.transactionId);
    if (target?.view.type === 'withdrawal') {
      return this.repository.reservations.run(target.view.merchantId, () => this.change(input));
    }
    return this.change(input);
  }

  private change(input: ChangeAmountCommand['input']): Promise<TransactionView> {
    return runTransition(this.repository, input.transactionId, input.actor, (current) => {
      const view = current.view;
      assertMove(view, 'change-amount');
      return {
        writes: async (version, loadLedger) => {
          if (view.type === 'deposit') {
            return [
              txnWrite(view.transactionId, version, [
                domainEvent('TransactionAmountChanged', {
                  transactionId: view.transactionId,
                  fromKurus: view.amountKurus,
                  toKurus: input.amountKurus.toString(),
                  feeKurus: '0',
                  by: by(input.actor),
                }),
              ]),
            ];
          }
          const merchant = await this.rules.of(view.merchantId);
          const fee = commissionKurus(input.amountKurus, merchant?.withdrawalCommissionBp ?? 0);
          const ledger = await loadLedger();
          const previousTotal = BigInt(view.amountKurus) + BigInt(view.feeKurus);
          // The old reservation is released in the same step, so only the difference must fit.
          assertCanReserve(
            ledger,
            input.amountKurus + fee - previousTotal,
            BigInt(merchant?.overdraftLimitKurus ?? '0'),
          );
          return [
            txnWrite(view.transactionId, version, [
              domainEvent('TransactionAmountChanged', {
                transactionId: view.transactionId,
                fromKurus: view.amountKurus,
                toKurus: input.amountKurus.toString(),
                feeKurus: fee.toString(),
                by: by(input.actor),
              }),
            ]),
            {
              streamId: STREAMS.merchantLedger(view.merchantId),
              expectedVersion: ledger.version,
              events: [
                domainEvent('ReservationChanged', {
                  transactionId: view.transactionId,
                  merchantId: view.merchantId,
                  transfers: withdrawalTransfers(
                    view.transactionId,
                    view.merchantId,
                    input.amountKurus,
                    fee,
                    version + 1,
                  ),
                }),
              ],
            },
          ];
        },
      };
    });
  }
}

@CommandHandler(ExpireTransactionCommand)
export class ExpireTransactionHandler implements ICommandHandler<ExpireTransactionCommand, TransactionView> {
  constructor(private readonly repository: LedgerRepository) {}

  async execute({ input }: ExpireTransactionCommand): Promise<TransactionView> {
    return runTransition(this.repository, input.transactionId, { source: 'system' }, (current) => {
      assertMove(current.view, 'expire');
      if (!current.view.expiresAt || new Date(current.view.expiresAt) > input.now) {
        throw new DomainError('invalid_state_transition', 'deposit has not reached its expiry time');
      }
      return {
        writes: async (version) => [
          txnWrite(current.view.transactionId, version, [
            domainEvent('TransactionExpired', { transactionId: current.view.transactionId }),
          ]),
        ],
      };
    });
  }
}
