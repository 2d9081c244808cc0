import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@transfergate/event-store';
import {
  balanceOf,
  depositTransfers,
  foldMerchantLedger,
  withdrawalTransfers,
  type MerchantBalance,
} from '../domain/merchant-ledger.js';
import { MerchantLedgerFolds } from './merchant-ledger-folds.js';
import { MerchantReservationQueue } from './merchant-reservation-queue.js';

const MERCHANT = 'm-1';

/** A merchant ledger stream: deposits credited, withdrawals reserved, changed, posted and voided. */
function ledgerStream(length: number): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  const open: string[] = [];
  const push = (type: string, data: unknown) =>
    events.push({
      eventId: randomUUID(),
      streamId: `ledger-${MERCHANT}`,
      streamVersion: events.length + 1,
      type,
      schemaVersion: 1,
      data,
      metadata: {},
      position: { commitXid: String(events.length + 1), seq: String(events.length + 1) },
      createdAt: '2026-11-29T10:00:00.000Z',
    });
  for (let i = 0; events.length < length; i++) {
    const transactionId = randomUUID();
    const merchantId = MERCHANT;
    switch (i % 5) {
      case 0:
      case 1:
        push('TransfersPosted', {
          transactionId,
          merchantId,
          transfers: depositTransfers(transactionId, MERCHANT, 'bank-1', 100_000n + BigInt(i), 1_500n),
        });
        break;
      case 2:
        open.push(transactionId);
        push('TransfersReserved', {
          transactionId,
          merchantId,
          transfers: withdrawalTransfers(transactionId, MERCHANT, 5_000n + BigInt(i), 100n),
        });
        break;
      case 3: {
        const changed = open.at(-1)!;
        push('ReservationChanged', {
          transactionId: changed,
          merchantId,
          transfers: withdrawalTransfers(changed, MERCHANT, 4_000n, 80n, 1),
        });
        break;
      }
      default: {
        const settled = open.shift()!;
        if (i % 2 === 0) push('ReservationVoided', { transactionId: settled, merchantId });
        else
          push('ReservationPosted', {
            transactionId: settled,
            merchantId,
            transfers: withdrawalTransfers(settled, MERCHANT, 4_000n, 80n, 1),
          });
      }
    }
  }
  return events;
}

/** The store's read of a stream from a version on, counting what it hands out. */
function storeOf(stream: RecordedEvent[]) {
  const reads: number[] = [];
  let visible = 0;
  return {
    reads,
    /** Events up to this many are committed. */
    commit: (count: number) => (visible = count),
    readFrom: (fromVersion: number) => {
      reads.push(fromVersion);
      return Promise.resolve(stream.slice(fromVersion - 1, visible));
    },
  };
}

/** The whole stream's fold up to `count` events, as a load answers it. */
const foldedBalance = (stream: RecordedEvent[], count: number, transactionId?: string): MerchantBalance =>
  balanceOf(foldMerchantLedger(MERCHANT, stream.slice(0, count)), transactionId);

describe('MerchantLedgerFolds', () => {
  it("a load reads only the events after the held version and answers the whole stream's fold", async () => {
    const stream = ledgerStream(60);
    const store = storeOf(stream);
    const folds = new MerchantLedgerFolds();
    for (const committed of [0, 1, 7, 7, 23, 40, 60]) {
      store.commit(committed);
      expect(await folds.load(MERCHANT, store.readFrom)).toEqual(foldedBalance(stream, committed));
    }
    expect(store.reads).toEqual([1, 1, 2, 8, 8, 24, 41]);
    expect(folds.size).toBe(1);
  });

  it('answers the open reservation of the transaction asked about, and none for a settled one', async () => {
    const stream = ledgerStream(60);
    const store = storeOf(stream);
    const folds = new MerchantLedgerFolds();
    // Event 58 reserves (its withdrawal is settled by event 60): open at 58.
    store.commit(58);
    const open = [...foldMerchantLedger(MERCHANT, stream.slice(0, 58)).reservations.keys()];
    const settled = stream
      .slice(0, 58)
      .filter((e) => e.type === 'ReservationPosted' || e.type === 'ReservationVoided')
      .map((e) => (e.data as { transactionId: string }).transactionId);
    expect(open.length).toBeGreaterThan(0);
    expect(settled.length).toBeGreaterThan(0);
    for (const transactionId of [...open, ...settled]) {
      const balance = await folds.load(MERCHANT, store.readFrom, transactionId);
      expect(balance).toEqual(foldedBalance(stream, 58, transactionId));
      expect(balance.reservation !== undefined).toBe(open.includes(transactionId));
    }
  });

  it('side-by-side loads never move the held fold back, and a caller changing its answer changes nothing held', async () => {
    const stream = ledgerStream(30);
    const store = storeOf(stream);
    const folds = new MerchantLedgerFolds();
    store.commit(28); // event 28 reserves: one withdrawal open
    // A slower load, started first, read only 10 events and finishes last: it must not move the
    // held fold back. It answers the held fold's balance, a version the stream had.
    let releaseSlow!: (events: RecordedEvent[]) => void;
    const slow = folds.load(MERCHANT, () => new Promise<RecordedEvent[]>((resolve) => (releaseSlow = resolve)));
    const open = [...foldMerchantLedger(MERCHANT, stream.slice(0, 28)).reservations.keys()][0]!;
    const ahead = await folds.load(MERCHANT, store.readFrom, open);
    releaseSlow(stream.slice(0, 10));
    expect(await slow).toEqual(foldedBalance(stream, 28));
    ahead.creditsPostedKurus = 0n;
    ahead.version = 1;
    ahead.reservation!.length = 0;
    const again = await folds.load(MERCHANT, store.readFrom, open);
    expect(again).toEqual(foldedBalance(stream, 28, open));
    expect(again.reservation).toHaveLength(2); // payout and fee, unchanged by the caller's edit
    expect(store.reads.at(-1)).toBe(29);
  });

  it('refuses a tail that does not follow the held version, and keeps the held fold', async () => {
    const stream = ledgerStream(20);
    const store = storeOf(stream);
    const folds = new MerchantLedgerFolds();
    store.commit(10);
    await folds.load(MERCHANT, store.readFrom);
    await expect(folds.load(MERCHANT, () => Promise.resolve(stream.slice(11, 20)))).rejects.toThrow(
      /version 12 after 10/,
    );
    store.commit(20);
    expect(await folds.load(MERCHANT, store.readFrom)).toEqual(foldedBalance(stream, 20));
  });

  it('an event it cannot apply leaves the held fold at the event before, whole', async () => {
    const stream = ledgerStream(20);
    const store = storeOf(stream);
    const folds = new MerchantLedgerFolds();
    store.commit(10);
    await folds.load(MERCHANT, store.readFrom);
    // Event 12 posts a reservation nobody made: 11 is folded, 12 changes nothing.
    const stranger = randomUUID();
    const bad: RecordedEvent = {
      ...stream[11]!,
      type: 'ReservationPosted',
      data: {
        transactionId: stranger,
        merchantId: MERCHANT,
        transfers: withdrawalTransfers(stranger, MERCHANT, 100n, 0n),
      },
    };
    await expect(folds.load(MERCHANT, () => Promise.resolve([stream[10]!, bad]))).rejects.toThrow(
      /posting without reservation/,
    );
    store.commit(20);
    expect(await folds.load(MERCHANT, store.readFrom)).toEqual(foldedBalance(stream, 20));
    expect(store.reads.at(-1)).toBe(12);
  });

  it('holds at most its bound of merchants', async () => {
    const folds = new MerchantLedgerFolds(2);
    const empty = () => Promise.resolve([]);
    for (const merchantId of ['a', 'b']) await folds.load(merchantId, empty);
    expect(folds.size).toBe(0); // an empty stream folds to version 0: nothing worth holding
    const stream = ledgerStream(3);
    for (const merchantId of ['a', 'b', 'c']) {
      await folds.load(merchantId, () => Promise.resolve(stream.map((e) => ({ ...e, streamId: merchantId }))));
    }
    expect(folds.size).toBe(1);
  });
});

describe('MerchantReservationQueue', () => {
  it('runs one merchant one at a time in arrival order, merchants side by side, past a refusal', async () => {
    const queue = new MerchantReservationQueue();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const work =
      (name: string, fail = false) =>
      async () => {
        running++;
        most = Math.max(most, running);
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${name}`);
        running--;
        if (fail) throw new Error(`refused ${name}`);
        return name;
      };
    const a = [queue.run('a', work('a1')), queue.run('a', work('a2', true)), queue.run('a', work('a3'))];
    const b = queue.run('b', work('b1'));
    expect(queue.size).toBe(2);
    const outcomes = await Promise.allSettled([...a, b]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : String(o.reason)))).toEqual([
      'a1',
      'Error: refused a2',
      'a3',
      'b1',
    ]);
    const ofA = log.filter((line) => line.endsWith('a1') || line.endsWith('a2') || line.endsWith('a3'));
    expect(ofA).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
    expect(most).toBe(2); // a and b overlapped
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queue.size).toBe(0);
  });
});
