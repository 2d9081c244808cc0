import { EVENT_CATALOG, type EventType } from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';
import type { TransactionAggregate } from '../domain/transaction.js';
import type { RecordRow } from '../reconciliation/read-model/projection.js';
import {
  foldEvent,
  type BalanceColumn,
  type ConfigReadRow,
  type ReadRowStore,
  type TransactionReadRow,
  type TransferReadRow,
} from './read-model-fold.js';

/** The simplest row store: everything in Maps, nothing written anywhere. */
class Rows implements ReadRowStore {
  readonly transactions = new Map<string, TransactionReadRow>();
  readonly transfers: TransferReadRow[] = [];
  readonly balances = new Map<string, bigint>();
  readonly daily = new Map<string, bigint>();
  readonly records = new Map<string, ConfigReadRow>();
  readonly recordRows = new Map<string, RecordRow & { at: string }>();
  transaction(id: string) {
    return this.transactions.get(id);
  }
  createTransaction(id: string, row: TransactionReadRow) {
    this.transactions.set(id, row);
  }
  updateTransaction(id: string, aggregate: TransactionAggregate) {
    this.transactions.get(id)!.aggregate = aggregate;
  }
  addTransfer(row: TransferReadRow) {
    this.transfers.push(row);
  }
  pendingTransfers(id: string) {
    return this.transfers.filter((t) => t.transaction_id === id && t.state === 'pending');
  }
  settleTransfer(row: TransferReadRow, state: 'posted' | 'voided', at: string) {
    row.state = state;
    row.updated_at = at;
  }
  addToBalance(account: string, column: BalanceColumn, deltaKurus: bigint) {
    const key = `${account} ${column}`;
    this.balances.set(key, (this.balances.get(key) ?? 0n) + deltaKurus);
  }
  addDailyIssued(bankAccountId: string, day: string, deltaKurus: bigint) {
    const key = `${bankAccountId} ${day}`;
    this.daily.set(key, (this.daily.get(key) ?? 0n) + deltaKurus);
  }
  putConfigRecord(row: ConfigReadRow) {
    this.records.set(`${row.table} ${row.key}`, row);
  }
  putReconciliationRow(row: RecordRow, at: string) {
    this.recordRows.set(`${row.table} ${row.key}`, { ...row, at });
  }
}

const TXN = '0b5e4f5e-6f1c-4d2a-9b7e-1c2d3e4f5a6b';
const by = { source: 'panel', operatorId: 'op-1' };
const versions = new Map<string, number>();

function recorded(streamId: string, type: EventType, data: unknown, createdAt: string): RecordedEvent {
  const streamVersion = (versions.get(streamId) ?? 0) + 1;
  versions.set(streamId, streamVersion);
  return {
    eventId: `e-${streamId}-${streamVersion}`,
    streamId,
    streamVersion,
    type,
    schemaVersion: EVENT_CATALOG[type].version,
    data: EVENT_CATALOG[type].schema.parse(data),
    metadata: { actor: 'op-1' },
    position: { commitXid: '1', seq: String(streamVersion) },
    createdAt,
  };
}

const origin = {
  transactionId: TXN,
  number: 7,
  merchantId: 'm-1',
  providerId: 'p-1',
  infrastructureId: 'i-1',
  form: 'h2h' as const,
  externalId: 'x-7',
  requestFingerprint: 'f',
  customer: { fullName: 'Ada' },
};
const depositRequested = (amountKurus: string, at: string) =>
  recorded(
    `txn-${TXN}`,
    'DepositRequested',
    {
      ...origin,
      amountKurus,
      receivingAccount: {
        bankAccountId: 'ba-1',
        bank: 'B',
        bankCode: '0062',
        holderName: 'H',
        iban: 'TR1',
        fast: true,
      },
      paymentToken: 'pt-7',
      expiresAt: '2026-11-25T09:00:00.000Z',
    },
    at,
  );

function fold(...events: RecordedEvent[]): Rows {
  const rows = new Rows();
  for (const event of events) foldEvent(rows, event);
  return rows;
}

beforeEach(() => versions.clear());

describe('the read-model fold', () => {
  describe('daily volume of the receiving account', () => {
    it('counts a deposit on the Turkish day of its request (21:00 UTC is the next day)', () => {
      expect(fold(depositRequested('5000', '2026-11-24T20:59:59.999Z')).daily).toEqual(
        new Map([['ba-1 2026-11-24', 5_000n]]),
      );
      versions.clear();
      expect(fold(depositRequested('5000', '2026-11-24T21:00:00.000Z')).daily).toEqual(
        new Map([['ba-1 2026-11-25', 5_000n]]),
      );
    });

    it('moves the day by an amount change and gives the amount back on rejection, on the request day', () => {
      const rows = fold(
        depositRequested('5000', '2026-11-24T20:00:00.000Z'),
        recorded(
          `txn-${TXN}`,
          'TransactionAmountChanged',
          { transactionId: TXN, fromKurus: '5000', toKurus: '4200', feeKurus: '0', by },
          '2026-11-25T08:00:00.000Z',
        ),
        recorded(
          `txn-${TXN}`,
          'TransactionRejected',
          { transactionId: TXN, reason: 'no payment', fromState: 'awaiting_payment', by },
          '2026-11-25T09:00:00.000Z',
        ),
      );
      expect(rows.daily).toEqual(new Map([['ba-1 2026-11-24', 0n]]));
      const row = rows.transactions.get(TXN)!;
      expect(row.aggregate.view).toMatchObject({ state: 'rejected', amountKurus: '4200', reason: 'no payment' });
      expect(row).toMatchObject({ day: '2026-11-24', createdAt: '2026-11-24T20:00:00.000Z', bankAccountId: 'ba-1' });
      expect(row.aggregate.version).toBe(3);
    });

    it('counts an expired deposit again once it is approved after all', () => {
      const at = '2026-11-24T10:00:00.000Z';
      const rows = fold(
        depositRequested('5000', at),
        recorded(`txn-${TXN}`, 'TransactionExpired', { transactionId: TXN }, at),
      );
      expect(rows.daily.get('ba-1 2026-11-24')).toBe(0n);
      foldEvent(
        rows,
        recorded(
          `txn-${TXN}`,
          'TransactionApproved',
          { transactionId: TXN, amountKurus: '5000', fromState: 'expired', by },
          at,
        ),
      );
      expect(rows.daily.get('ba-1 2026-11-24')).toBe(5_000n);
    });
  });

  it("keeps an amount change request's row, pending until its decision replaces it; the view holds it meanwhile", () => {
    const requestId = '7d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a';
    const change = { transactionId: TXN, requestId, fromKurus: '5000', toKurus: '90000' };
    const rows = fold(
      depositRequested('5000', '2026-11-24T10:00:00.000Z'),
      recorded(
        `txn-${TXN}`,
        'AmountChangeRequested',
        { ...change, originalKurus: '5000', by },
        '2026-11-24T10:05:00.000Z',
      ),
    );
    expect(rows.recordRows.get(`rm_amount_change_requests ${requestId}`)).toMatchObject({
      keyColumn: 'request_id',
      columns: { transaction_id: TXN, state: 'pending' },
      at: '2026-11-24T10:05:00.000Z',
    });
    expect(rows.transactions.get(TXN)!.aggregate.view.pendingAmountChange).toMatchObject({
      requestId,
      toKurus: '90000',
    });
    const second = { source: 'panel', operatorId: 'op-2' };
    foldEvent(
      rows,
      recorded(
        `txn-${TXN}`,
        'TransactionAmountChanged',
        { transactionId: TXN, fromKurus: '5000', toKurus: '90000', feeKurus: '0', by: second },
        '2026-11-24T10:09:00.000Z',
      ),
    );
    foldEvent(
      rows,
      recorded(
        `txn-${TXN}`,
        'AmountChangeApproved',
        { ...change, requestedBy: 'op-1', by: second },
        '2026-11-24T10:09:00.000Z',
      ),
    );
    expect(rows.recordRows.get(`rm_amount_change_requests ${requestId}`)).toMatchObject({
      columns: { transaction_id: TXN, state: 'approved' },
    });
    const view = rows.transactions.get(TXN)!.aggregate.view;
    expect(view.amountKurus).toBe('90000');
    expect(view.pendingAmountChange).toBeUndefined();
    // The account's day moves with the changed amount, as for any change.
    expect(rows.daily.get('ba-1 2026-11-24')).toBe(90_000n);
  });

  it('refuses a later event of a transaction it does not hold', () => {
    versions.set(`txn-${TXN}`, 1); // its request is in a row the store does not hold
    expect(() =>
      fold(recorded(`txn-${TXN}`, 'PaymentReported', { transactionId: TXN }, '2026-11-24T10:00:00.000Z')),
    ).toThrow(/unknown transaction/);
  });

  it('reserves, re-reserves and posts: pending moves to posted, the replaced set is voided', () => {
    const ledger = 'merchant-ledger-m-1';
    const set = (id: string, amountKurus: string) => ({
      transactionId: TXN,
      merchantId: 'm-1',
      transfers: [{ transferId: id, debitAccount: 'merchant:m-1', creditAccount: 'withdrawals', amountKurus }],
    });
    const rows = fold(
      recorded(ledger, 'TransfersReserved', set('t1', '900'), '2026-11-24T10:00:00.000Z'),
      recorded(ledger, 'ReservationChanged', set('t2', '700'), '2026-11-24T11:00:00.000Z'),
      recorded(ledger, 'ReservationPosted', set('t2', '700'), '2026-11-24T12:00:00.000Z'),
    );
    expect(rows.transfers.map((t) => [t.transfer_id, t.state, t.updated_at])).toEqual([
      ['t1', 'voided', '2026-11-24T11:00:00.000Z'],
      ['t2', 'posted', '2026-11-24T12:00:00.000Z'],
    ]);
    expect(Object.fromEntries(rows.balances)).toEqual({
      'merchant:m-1 debits_pending_kurus': 0n,
      'withdrawals credits_pending_kurus': 0n,
      'merchant:m-1 debits_posted_kurus': 700n,
      'withdrawals credits_posted_kurus': 700n,
    });
  });

  it('keeps a configuration record whole, with its indexed columns and the time of its event', () => {
    const rows = fold(
      recorded(
        'config-bank-account-ba-1',
        'BankAccountConfigured',
        {
          bankAccountId: 'ba-1',
          bank: 'B',
          bankCode: '0062',
          iban: 'TR1',
          holderName: 'H',
          fast: true,
          minAmountKurus: '100',
          maxAmountKurus: '100000',
          dailyLimitKurus: '500000',
          active: false,
        },
        '2026-11-24T10:00:00.000Z',
      ),
    );
    expect(rows.records.get('rm_bank_accounts ba-1')).toMatchObject({
      keyColumn: 'bank_account_id',
      columns: { iban: 'TR1', active: false },
      record: { dailyLimitKurus: '500000' },
      updatedAt: '2026-11-24T10:00:00.000Z',
    });
  });
});
