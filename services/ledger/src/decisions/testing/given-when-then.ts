import {
  DomainError,
  EVENT_CATALOG,
  STREAMS,
  domainEvent,
  type DomainEvent,
  type ErrorCode,
  type EventData,
} from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';
import { balanceOf, emptyLedger, evolveMerchantLedger, type MerchantBalance } from '../../domain/merchant-ledger.js';
import { evolveWithAppended, type TransactionAggregate } from '../../domain/transaction.js';
import type { PendingWrite } from '../../persistence/ledger-repository.js';
import type { Decided } from '../decision.js';

/**
 * The given/when/then of a decision's spec, with no database: `given` folds a stream's events with
 * the stream's own evolve into the state a handler would load, the spec calls the decide function
 * (when), and `then` turns its answer into plain data to compare: the refusal's code, or each
 * write's stream, expected version and events.
 */

/** given: a transaction stream holding these events. */
export function givenTransaction(...events: DomainEvent[]): TransactionAggregate {
  const data = events[0]?.data as { transactionId?: string } | undefined;
  if (!data?.transactionId) throw new Error('a transaction stream starts with its request event');
  return evolveWithAppended(undefined, STREAMS.transaction(data.transactionId), events);
}

/** given: a merchant ledger stream holding these events, loaded as a command asking about `transactionId`. */
export function givenLedger(merchantId: string, events: DomainEvent[], transactionId?: string): MerchantBalance {
  const streamId = STREAMS.merchantLedger(merchantId);
  let ledger = emptyLedger(merchantId);
  for (const [i, event] of events.entries()) ledger = evolveMerchantLedger(ledger, recorded(streamId, i + 1, event));
  return balanceOf(ledger, transactionId);
}

/** An event as the store hands it back (the store's own fields are stand-ins). */
export function recorded(streamId: string, streamVersion: number, event: DomainEvent): RecordedEvent {
  return {
    eventId: `${streamId}:${streamVersion}`,
    streamId,
    streamVersion,
    type: event.type,
    schemaVersion: EVENT_CATALOG[event.type].version,
    data: event.data,
    metadata: {},
    position: { commitXid: '1', seq: String(streamVersion) },
    createdAt: '2026-01-01T09:00:00.000Z',
  };
}

export type Then =
  | { refused: ErrorCode }
  | { writes: Array<{ streamId: string; expectedVersion: PendingWrite['expectedVersion']; events: DomainEvent[] }> };

/** then: a decision's answer as data (the refusal's code, or the writes). */
export function then(decided: Decided<PendingWrite[]>): Then {
  if (decided instanceof DomainError) return { refused: decided.errorCode };
  return {
    writes: decided.map((w) => ({ streamId: w.streamId, expectedVersion: w.expectedVersion, events: w.events })),
  };
}

/** then, for a spec that reads the refusal's message or details too. */
export function refusalOf<T>(decided: Decided<T>): DomainError {
  if (!(decided instanceof DomainError)) throw new Error(`expected a refusal, got ${JSON.stringify(decided)}`);
  return decided;
}

/** then, for a decision that was expected to accept. */
export function accepted<T>(decided: Decided<T>): T {
  if (decided instanceof DomainError)
    throw new Error(`expected an answer, got ${decided.errorCode}: ${decided.message}`);
  return decided;
}

// Fixtures: one merchant, one receiving account, one deposit and one withdrawal.

export const MERCHANT_ID = 'm-1';
export const DEPOSIT_ID = '11111111-1111-4111-8111-111111111111';
export const WITHDRAWAL_ID = '22222222-2222-4222-8222-222222222222';
export const OPERATOR = { source: 'panel', operatorId: 'op-1' } as const;

export function merchantRecord(change: Partial<EventData<'MerchantConfigured'>> = {}): EventData<'MerchantConfigured'> {
  return {
    merchantId: MERCHANT_ID,
    name: 'Shop',
    active: true,
    minAmountKurus: '1000',
    maxAmountKurus: '50000000',
    depositCommissionBp: 0,
    withdrawalCommissionBp: 0,
    overdraftLimitKurus: '0',
    ...change,
  };
}

export function bankAccountRecord(
  change: Partial<EventData<'BankAccountConfigured'>> = {},
): EventData<'BankAccountConfigured'> {
  return {
    bankAccountId: 'ba-1',
    bank: 'Ziraat',
    bankCode: '00010',
    iban: 'TR330006100519786457841326',
    holderName: 'Transfer Gate AŞ',
    fast: true,
    minAmountKurus: '1000',
    maxAmountKurus: '50000000',
    dailyLimitKurus: '100000000',
    active: true,
    ...change,
  };
}

const origin = {
  merchantId: MERCHANT_ID,
  providerId: 'p-1',
  infrastructureId: 'i-1',
  form: 'h2h' as const,
  requestFingerprint: 'fp',
  echo: {},
  customer: { fullName: 'Ayşe Yılmaz' },
};

export function depositRequested(amountKurus = '10000', expiresAt = '2026-01-01T10:00:00.000Z'): DomainEvent {
  const {
    bankCode: _bankCode,
    minAmountKurus: _min,
    maxAmountKurus: _max,
    dailyLimitKurus: _daily,
    active: _a,
    ...account
  } = bankAccountRecord();
  return domainEvent('DepositRequested', {
    ...origin,
    transactionId: DEPOSIT_ID,
    number: 1,
    externalId: 'dep-1',
    amountKurus,
    receivingAccount: { ...account, bankCode: '00010' },
    paymentToken: 'token',
    expiresAt,
  });
}

export function withdrawalRequested(amountKurus = '10000', feeKurus = '0'): DomainEvent {
  return domainEvent('WithdrawalRequested', {
    ...origin,
    transactionId: WITHDRAWAL_ID,
    number: 2,
    externalId: 'wd-1',
    amountKurus,
    feeKurus,
    iban: 'TR330006100519786457841326',
  });
}

const by = { source: 'panel', operatorId: 'op-1' };

/** The events that bring the deposit fixture to `state`. */
export function depositIn(
  state: 'awaiting_payment' | 'payment_reported' | 'approved' | 'rejected' | 'expired',
  amountKurus = '10000',
): DomainEvent[] {
  const transactionId = DEPOSIT_ID;
  const requested = depositRequested(amountKurus);
  switch (state) {
    case 'awaiting_payment':
      return [requested];
    case 'payment_reported':
      return [requested, domainEvent('PaymentReported', { transactionId })];
    case 'approved':
      return [
        requested,
        domainEvent('TransactionApproved', { transactionId, amountKurus, fromState: 'awaiting_payment', by }),
      ];
    case 'rejected':
      return [
        requested,
        domainEvent('TransactionRejected', { transactionId, reason: 'no', fromState: 'awaiting_payment', by }),
      ];
    case 'expired':
      return [requested, domainEvent('TransactionExpired', { transactionId })];
  }
}

/** The events that bring the withdrawal fixture to `state`. */
export function withdrawalIn(
  state: 'pending' | 'processing' | 'approved' | 'rejected',
  amountKurus = '10000',
  feeKurus = '0',
): DomainEvent[] {
  const transactionId = WITHDRAWAL_ID;
  const requested = withdrawalRequested(amountKurus, feeKurus);
  switch (state) {
    case 'pending':
      return [requested];
    case 'processing':
      return [requested, domainEvent('TransactionAssigned', { transactionId, assignee: 'op-1', by })];
    case 'approved':
      return [requested, domainEvent('TransactionApproved', { transactionId, amountKurus, fromState: 'pending', by })];
    case 'rejected':
      return [requested, domainEvent('TransactionRejected', { transactionId, reason: 'no', fromState: 'pending', by })];
  }
}
