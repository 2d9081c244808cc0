import {
  DomainError,
  EVENT_CATALOG,
  type DomainEvent,
  type EventType,
  type TransactionState,
  type TransactionView,
} from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';
import { isFinal } from './transaction-states.js';

/**
 * The Transaction aggregate: state folded from its stream, and the rules for every move.
 * Pure functions: the command handlers load, decide, append; nothing here touches I/O.
 */
export interface TransactionAggregate {
  view: TransactionView;
  requestFingerprint: string;
  version: number;
}

/**
 * An event's data through its schema. Data that `domainEvent` built a moment ago went through the
 * same schema already (`validated`): parsing it again would give an equal copy.
 */
function parse<T extends EventType>(type: T, event: RecordedEvent, validated = false) {
  type Data = import('@transfergate/contracts').EventData<T>;
  return validated ? (event.data as Data) : (EVENT_CATALOG[type].schema.parse(event.data) as Data);
}

/**
 * Folds events this process just appended, without reading them back: the store's own fields
 * (position, created time) are not known here, so they are stand-ins. The events are `domainEvent`'s
 * (their data already through its schema), so they are not parsed again.
 */
export function evolveWithAppended(
  state: TransactionAggregate | undefined,
  streamId: string,
  events: readonly DomainEvent[],
): TransactionAggregate {
  let next = state;
  const now = new Date().toISOString();
  for (const [i, event] of events.entries()) {
    next = evolveValidated(next, {
      eventId: '',
      streamId,
      streamVersion: (state?.version ?? 0) + i + 1,
      type: event.type,
      schemaVersion: EVENT_CATALOG[event.type].version,
      data: event.data,
      metadata: {},
      position: { commitXid: '0', seq: '0' },
      createdAt: now,
    });
  }
  if (!next) throw new Error('evolveWithAppended needs at least one event');
  return next;
}

export function foldTransaction(events: RecordedEvent[]): TransactionAggregate | undefined {
  let aggregate: TransactionAggregate | undefined;
  for (const event of events) aggregate = evolve(aggregate, event);
  return aggregate;
}

export function evolve(state: TransactionAggregate | undefined, event: RecordedEvent): TransactionAggregate {
  return evolveValidated(state, event, false);
}

function evolveValidated(
  state: TransactionAggregate | undefined,
  event: RecordedEvent,
  validated = true,
): TransactionAggregate {
  const at = event.createdAt;
  if (event.type === 'DepositRequested' || event.type === 'WithdrawalRequested') {
    return { version: event.streamVersion, ...requestedView(event, at, validated) };
  }
  if (!state) throw new Error(`stream ${event.streamId} starts with ${event.type}, not a request event`);
  const view = { ...state.view, updatedAt: at };
  switch (event.type) {
    case 'PaymentReported': {
      view.state = 'payment_reported';
      const { senderBank, transferredAt } = parse('PaymentReported', event, validated);
      if (senderBank !== undefined || transferredAt !== undefined) {
        view.paymentReport = {
          ...(senderBank !== undefined ? { senderBank } : {}),
          ...(transferredAt !== undefined ? { transferredAt } : {}),
        };
      }
      break;
    }
    case 'AmountChangeRequested': {
      const d = parse('AmountChangeRequested', event, validated);
      view.pendingAmountChange = {
        requestId: d.requestId,
        fromKurus: d.fromKurus,
        toKurus: d.toKurus,
        requestedBy: d.by.operatorId ?? d.by.source,
        requestedAt: at,
        ...(d.lineId ? { lineId: d.lineId } : {}),
      };
      break;
    }
    case 'AmountChangeApproved':
    case 'AmountChangeRejected':
      delete view.pendingAmountChange;
      break;
    case 'TransactionAssigned':
      view.state = view.type === 'withdrawal' ? 'processing' : view.state;
      view.assignee = parse('TransactionAssigned', event, validated).assignee;
      break;
    case 'TransactionAmountChanged': {
      const d = parse('TransactionAmountChanged', event, validated);
      view.amountKurus = d.toKurus;
      view.feeKurus = d.feeKurus;
      break;
    }
    case 'TransactionApproved':
      view.state = 'approved';
      // A change still waiting has nothing left to change.
      delete view.pendingAmountChange;
      break;
    case 'TransactionRejected':
      view.state = 'rejected';
      view.reason = parse('TransactionRejected', event, validated).reason;
      delete view.pendingAmountChange;
      break;
    case 'TransactionExpired':
      view.state = 'expired';
      break;
    case 'WebhookAmountMismatched':
      // History only: the operator decides what the differing amount means.
      break;
    case 'RiskRuleHit':
      // A hold puts the transaction in the risk queue; a flag is history only (its badge).
      if (parse('RiskRuleHit', event, validated).action === 'hold') view.state = 'held';
      break;
    case 'RiskHoldReleased':
      view.state = view.type === 'deposit' ? 'awaiting_payment' : 'pending';
      break;
    default:
      throw new Error(`unknown transaction event ${event.type}`);
  }
  return { ...state, version: event.streamVersion, view };
}

/** The view a request event opens a transaction with (both kinds share their origin fields). */
function requestedView(event: RecordedEvent, at: string, validated: boolean): Omit<TransactionAggregate, 'version'> {
  const d =
    event.type === 'DepositRequested'
      ? parse('DepositRequested', event, validated)
      : parse('WithdrawalRequested', event, validated);
  const common = {
    transactionId: d.transactionId,
    number: d.number,
    merchantId: d.merchantId,
    providerId: d.providerId,
    infrastructureId: d.infrastructureId,
    form: d.form,
    externalId: d.externalId,
    amountKurus: d.amountKurus,
    originalAmountKurus: d.amountKurus,
    customer: d.customer,
    ...(d.callbackUrl ? { callbackUrl: d.callbackUrl } : {}),
    ...(d.returnUrl ? { returnUrl: d.returnUrl } : {}),
    echo: d.echo,
    createdAt: at,
    updatedAt: at,
  };
  // Object.assign onto `common`, not `{ ...common, type, … }`: on Node 20's V8, properties added
  // after a leading spread cost microseconds each time (a fresh map per object), here on every
  // request event, live and in a replay. Same keys, same order.
  if ('receivingAccount' in d) {
    const { bankCode: _bankCode, ...bankAccount } = d.receivingAccount;
    return {
      requestFingerprint: d.requestFingerprint,
      view: Object.assign(common, {
        type: 'deposit' as const,
        state: 'awaiting_payment' as const,
        feeKurus: '0',
        bankAccount,
        paymentToken: d.paymentToken,
        expiresAt: d.expiresAt,
      }),
    };
  }
  return {
    requestFingerprint: d.requestFingerprint,
    view: Object.assign(common, {
      type: 'withdrawal' as const,
      state: 'pending' as const,
      feeKurus: d.feeKurus,
      iban: d.iban,
    }),
  };
}

export { isFinal };

/** The refusal of any change to a final transaction, naming the state it is in; undefined when open. */
export function finalRefusal(view: TransactionView, action: string): DomainError | undefined {
  if (!isFinal(view.state)) return undefined;
  return new DomainError('transaction_final', `transaction is already ${view.state}; ${action} changes nothing`, {
    state: view.state,
  });
}

/** Refuses any change to a final transaction, naming the state it is in. */
export function assertNotFinal(view: TransactionView, action: string): void {
  const refusal = finalRefusal(view, action);
  if (refusal) throw refusal;
}

const MOVES: Record<string, readonly TransactionState[]> = {
  'deposit:report': ['awaiting_payment'],
  'deposit:approve': ['awaiting_payment', 'payment_reported'],
  'deposit:approve-expired': ['awaiting_payment', 'payment_reported', 'expired'],
  'deposit:reject': ['awaiting_payment', 'payment_reported', 'held', 'expired'],
  'deposit:release': ['held'],
  'withdrawal:release': ['held'],
  'deposit:expire': ['awaiting_payment', 'payment_reported'],
  'deposit:change-amount': ['awaiting_payment', 'payment_reported', 'expired'],
  'withdrawal:assign': ['pending', 'processing'],
  'withdrawal:approve': ['pending', 'processing'],
  'withdrawal:reject': ['pending', 'processing', 'held'],
  'withdrawal:change-amount': ['pending', 'processing'],
  'deposit:assign': ['awaiting_payment', 'payment_reported', 'expired'],
};

/**
 * The refusal of a move from the current state (final states first, with their own code);
 * undefined when the move is allowed.
 */
export function moveRefusal(view: TransactionView, move: string): DomainError | undefined {
  const final = finalRefusal(view, move);
  if (final) return final;
  const allowed = MOVES[`${view.type}:${move}`];
  if (!allowed || !allowed.includes(view.state)) {
    return new DomainError('invalid_state_transition', `cannot ${move} a ${view.type} in state ${view.state}`, {
      state: view.state,
    });
  }
  return undefined;
}

/** Asserts the move is allowed from the current state (final states first, with their own code). */
export function assertMove(view: TransactionView, move: string): void {
  const refusal = moveRefusal(view, move);
  if (refusal) throw refusal;
}
