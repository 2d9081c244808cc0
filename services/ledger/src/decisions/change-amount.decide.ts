import {
  DomainError,
  STREAMS,
  commissionKurus,
  domainEvent,
  kurusToDecimalString,
  type ChangeAmountCommand,
  type EventData,
} from '@transfergate/contracts';
import { reserveRefusal, withdrawalTransfers, type MerchantBalance } from '../domain/merchant-ledger.js';
import { moveRefusal, type TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import type { FourEyesLimits } from '../ledger.settings.js';
import { by, transactionWrite, type Decided } from './decision.js';
import { amountRangeRefusal } from './merchant-limits.js';

/** What the handler loads for this decision. */
export interface ChangeAmountContext {
  /** The merchant's rules: its amount range, and a withdrawal's fee and overdraft limit. */
  merchant: EventData<'MerchantConfigured'> | undefined;
  /** A withdrawal's merchant balance (its reservation moves, at this version of the ledger). */
  ledger: MerchantBalance | undefined;
  /** When a change waits for a second operator; absent: none waits. */
  fourEyes?: FourEyesLimits;
  /** The id a request for a second operator gets (the handler's fresh UUID: the decision stays pure). */
  requestId?: string;
}

/**
 * Whether setting `toKurus` on a transaction first requested at `originalKurus` needs a second
 * operator: the change's size, measured against the requested amount (so that a run of small
 * changes adds up), above the sum or above the share.
 */
export function needsSecondOperator(
  originalKurus: bigint,
  toKurus: bigint,
  limits: FourEyesLimits | undefined,
): boolean {
  if (!limits) return false;
  const size = toKurus > originalKurus ? toKurus - originalKurus : originalKurus - toKurus;
  if (size > limits.aboveKurus) return true;
  // size / original > percent / 100, in integers.
  return limits.abovePercent > 0 && size * 100n > originalKurus * BigInt(limits.abovePercent);
}

/** The refusal of any other amount change while one waits for a second operator. */
export function pendingChangeRefusal(state: TransactionAggregate): DomainError | undefined {
  const pending = state.view.pendingAmountChange;
  if (!pending) return undefined;
  return new DomainError(
    'amount_change_pending',
    `TG-${state.view.number}: an amount change to ${kurusToDecimalString(BigInt(pending.toKurus))} TRY waits for a second operator: approve or reject it first`,
    { requestId: pending.requestId },
  );
}

/** The refusal of an amount that is not positive: checked by the handler before anything is loaded. */
export function changeAmountInputRefusal(command: ChangeAmountCommand['input']): DomainError | undefined {
  return command.amountKurus <= 0n ? new DomainError('invalid_amount', 'amount must be positive') : undefined;
}

/**
 * An operator sets an open transaction's amount (the requested amount stays in the history),
 * within the merchant's per-transaction range (`amount_out_of_range` otherwise). A change beyond the
 * four-eyes limits (needsSecondOperator) is not made: it is recorded as AmountChangeRequested, which
 * another operator decides (decideAmountChangeDecision); while one waits, any other change is
 * refused with `amount_change_pending`. A deposit's fee stays 0; a withdrawal's fee follows the new
 * amount, and its reservation moves to amount + fee at the ledger's version: the old reservation is
 * released in the same step, so only the difference must fit the balance.
 */
export function decideChangeAmount(
  command: ChangeAmountCommand['input'],
  state: TransactionAggregate,
  context: ChangeAmountContext,
): Decided<PendingWrite[]> {
  const invalid = changeAmountInputRefusal(command);
  if (invalid) return invalid;
  const view = state.view;
  const refusal = moveRefusal(view, 'change-amount');
  if (refusal) return refusal;
  const pending = pendingChangeRefusal(state);
  if (pending) return pending;
  // An operator's amount keeps to the merchant's range, as an integrator's request must.
  const outOfRange = context.merchant && amountRangeRefusal(context.merchant, command.amountKurus);
  if (outOfRange) return outOfRange;
  if (
    BigInt(view.amountKurus) !== command.amountKurus &&
    needsSecondOperator(BigInt(view.originalAmountKurus), command.amountKurus, context.fourEyes)
  ) {
    if (!context.requestId) throw new Error('a change that waits for a second operator needs a request id');
    return [
      transactionWrite(view.transactionId, state.version, [
        domainEvent('AmountChangeRequested', {
          transactionId: view.transactionId,
          requestId: context.requestId,
          fromKurus: view.amountKurus,
          toKurus: command.amountKurus.toString(),
          originalKurus: view.originalAmountKurus,
          ...(command.lineId ? { lineId: command.lineId } : {}),
          by: by(command.actor),
        }),
      ]),
    ];
  }
  return amountChangeWrites(command, state, context);
}

/** The writes of an amount change that is made now (checked already): the event, and a withdrawal's reservation. */
export function amountChangeWrites(
  command: ChangeAmountCommand['input'],
  state: TransactionAggregate,
  context: ChangeAmountContext,
): Decided<PendingWrite[]> {
  const view = state.view;
  if (view.type === 'deposit') {
    return [
      transactionWrite(view.transactionId, state.version, [
        domainEvent('TransactionAmountChanged', {
          transactionId: view.transactionId,
          fromKurus: view.amountKurus,
          toKurus: command.amountKurus.toString(),
          feeKurus: '0',
          by: by(command.actor),
        }),
      ]),
    ];
  }
  const ledger = context.ledger;
  if (!ledger) throw new Error(`withdrawal ${view.transactionId}: its merchant's ledger was not loaded`);
  const merchant = context.merchant;
  const fee = commissionKurus(command.amountKurus, merchant?.withdrawalCommissionBp ?? 0);
  const previousTotal = BigInt(view.amountKurus) + BigInt(view.feeKurus);
  const short = reserveRefusal(
    ledger,
    command.amountKurus + fee - previousTotal,
    BigInt(merchant?.overdraftLimitKurus ?? '0'),
  );
  if (short) return short;
  return [
    transactionWrite(view.transactionId, state.version, [
      domainEvent('TransactionAmountChanged', {
        transactionId: view.transactionId,
        fromKurus: view.amountKurus,
        toKurus: command.amountKurus.toString(),
        feeKurus: fee.toString(),
        by: by(command.actor),
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
            command.amountKurus,
            fee,
            state.version + 1,
          ),
        }),
      ],
    },
  ];
}
