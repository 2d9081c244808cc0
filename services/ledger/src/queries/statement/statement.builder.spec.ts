import { MAX_STATEMENT_ENTRIES, STREAMS, statementRange } from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';
import { depositTransfers, withdrawalTransfers } from '../../domain/merchant-ledger.js';
import { buildMerchantStatement, ledgerTimes, versionAsOf } from './statement.builder.js';

const MERCHANT = '5f0c6f4e-1d2a-5b3c-8d4e-0f1a2b3c4d5e';
const txn = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function ledgerEvent(version: number, createdAt: string, type: string, data: unknown): RecordedEvent {
  return {
    eventId: `e-${version}`,
    streamId: STREAMS.merchantLedger(MERCHANT),
    streamVersion: version,
    type,
    schemaVersion: 1,
    data,
    metadata: {},
    position: { commitXid: String(version), seq: String(version) },
    createdAt,
  };
}

const deposit = (version: number, at: string, n: number, amount: bigint, commission: bigint) =>
  ledgerEvent(version, at, 'TransfersPosted', {
    transactionId: txn(n),
    merchantId: MERCHANT,
    transfers: depositTransfers(txn(n), MERCHANT, 'bank-1', amount, commission),
  });
const reserve = (version: number, at: string, n: number, amount: bigint, fee: bigint, type = 'TransfersReserved') =>
  ledgerEvent(version, at, type, {
    transactionId: txn(n),
    merchantId: MERCHANT,
    transfers: withdrawalTransfers(txn(n), MERCHANT, amount, fee),
  });
const post = (version: number, at: string, n: number, amount: bigint, fee: bigint) =>
  reserve(version, at, n, amount, fee, 'ReservationPosted');
const void_ = (version: number, at: string, n: number) =>
  ledgerEvent(version, at, 'ReservationVoided', { transactionId: txn(n), merchantId: MERCHANT });

const build = (events: RecordedEvent[], from: string, to: string) =>
  buildMerchantStatement({
    merchantId: MERCHANT,
    merchantName: 'Acme',
    range: statementRange(from, to),
    ledgerEvents: events,
    transactions: new Map(),
  });

describe('merchant statement fold', () => {
  const events = [
    deposit(1, '2026-01-01T10:00:00.000Z', 1, 10_000n, 150n),
    reserve(2, '2026-01-02T10:00:00.000Z', 2, 3_000n, 30n),
    // Recorded "earlier" than version 2 (its transaction started first, then waited for the lock).
    deposit(3, '2026-01-02T09:59:59.000Z', 3, 5_000n, 0n),
    post(4, '2026-01-03T10:00:00.000Z', 2, 3_000n, 30n),
    reserve(5, '2026-01-04T10:00:00.000Z', 4, 1_000n, 10n),
    void_(6, '2026-01-05T10:00:00.000Z', 4),
    reserve(7, '2026-01-06T10:00:00.000Z', 5, 500n, 0n),
  ];

  it('ledger time never goes back, so "as of" is a prefix of the stream', () => {
    expect(ledgerTimes(events).map((ms) => new Date(ms).toISOString().slice(0, 10))).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-02',
      '2026-01-03',
      '2026-01-04',
      '2026-01-05',
      '2026-01-06',
    ]);
    // Version 3 counts with version 2 (same ledger time), never before it.
    expect(versionAsOf(events, '2026-01-02T10:00:00.000Z')).toBe(1);
    expect(versionAsOf(events, '2026-01-02T10:00:00.001Z')).toBe(3);
  });

  it('splits into consecutive statements whose balances chain and whose entries concatenate', () => {
    const whole = build(events, '2026-01-01', '2026-01-07');
    const a = build(events, '2026-01-01', '2026-01-03');
    const b = build(events, '2026-01-03', '2026-01-07');
    expect(a.closing).toEqual(b.opening);
    expect([...a.entries, ...b.entries]).toEqual(whole.entries);
    expect(whole.opening).toEqual({ bookedKurus: '0', heldKurus: '0', availableKurus: '0' });
    // 9,850 + 5,000 − 3,030 booked; 500 held.
    expect(whole.closing).toEqual({ bookedKurus: '11820', heldKurus: '500', availableKurus: '11320' });
    expect(whole.entries.map((e) => `${e.type}/${e.phase}/${e.debitKurus}/${e.creditKurus}`)).toEqual([
      'deposit/posted/0/9850',
      'withdrawal/pending/3000/0',
      'fee/pending/30/0',
      'deposit/posted/0/5000',
      'withdrawal/posted/3000/0',
      'fee/posted/30/0',
      'withdrawal/pending/1000/0',
      'fee/pending/10/0',
      'withdrawal/voided/1000/0',
      'fee/voided/10/0',
      'withdrawal/pending/500/0',
    ]);
    expect(whole.entries[0]!.commissionKurus).toBe('150');
  });

  it('an empty range has equal opening and closing; events after `to` change nothing', () => {
    const quiet = build(events, '2026-01-07', '2026-01-08');
    expect(quiet.entries).toEqual([]);
    expect(quiet.opening).toEqual(quiet.closing);
    const before = build(events.slice(0, 4), '2026-01-01', '2026-01-03T12:00:00Z');
    expect(build(events, '2026-01-01', '2026-01-03T12:00:00Z')).toEqual(before);
  });

  it('refuses a range with more than MAX_STATEMENT_ENTRIES entries, and a stream of another merchant', () => {
    const many = Array.from({ length: MAX_STATEMENT_ENTRIES + 1 }, (_, i) =>
      deposit(i + 1, '2026-02-01T00:00:00.000Z', i + 1, 100n, 0n),
    );
    expect(() => build(many, '2026-02-01', '2026-02-02')).toThrow(/more than 10000 ledger entries/);
    expect(build(many, '2026-02-02', '2026-02-03').closing.bookedKurus).toBe(String((MAX_STATEMENT_ENTRIES + 1) * 100));
    const foreign = ledgerEvent(1, '2026-01-01T00:00:00.000Z', 'ReservationVoided', {
      transactionId: txn(1),
      merchantId: 'someone-else',
    });
    expect(() => build([foreign], '2026-01-01', '2026-01-02')).toThrow(/belongs to merchant/);
  });

  it('checks ranges: order, length, and well-formed instants (normalised to UTC)', () => {
    expect(() => statementRange('2026-01-02', '2026-01-01')).toThrow(/from must be before to/);
    expect(() => statementRange('2026-01-01', '2026-01-01T03:00:00+03:00')).toThrow(/from must be before to/);
    expect(statementRange('2026-01-01T03:00:00+03:00', '2026-01-02')).toEqual({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
    });
    expect(() => statementRange('2024-01-01', '2025-01-02')).toThrow(/at most 366 days/);
    expect(() => statementRange('soon', '2025-01-02')).toThrow(/ISO/);
  });
});
