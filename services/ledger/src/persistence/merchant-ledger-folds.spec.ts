import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@transfergate/event-store';
import {
  depositTransfers,
  foldMerchantLedger,
  withdrawalTransfers,
  type MerchantLedger,
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

const comparable = (ledger: MerchantLedger) => ({ ...ledger, reservations: [...ledger.reservations] });

describe('MerchantLedgerFolds', () => {
  it("a load reads only the events after the held version and answers the whole stream's fold", async () => {
    const stream = ledgerStream(60);
    const store = storeOf(stream);
    const folds = new MerchantLedgerFolds();
    for (const committed of [0, 1, 7, 7, 23, 40, 60]) {
      store.commit(committed);
      const ledger = await folds.load(MERCHANT, store.readFrom);
      expect(comparable(ledger)).toEqual(comparable(foldMerchantLedger(MERCHANT, stream.slice(0, committed))));
    }
    expect(store.reads).toEqual([1, 1, 2, 8, 8, 24, 41]);
    expect(folds.size).toBe(1);
  });

  it('side-by-side loads keep the furthest fold, and a caller changing its copy changes nothing held', async () => {
    const stream = ledgerStream(30);
    const store = storeOf(stream);
    const folds = new MerchantLedgerFolds();
    store.commit(30);
    // A slower load, started first, read only 10 events and finishes last: it must not move the
    // held fold back.
    let releaseSlow!: (events: RecordedEvent[]) => void;
    const slow = folds.load(MERCHANT, () => new Promise<RecordedEvent[]>((resolve) => (releaseSlow = resolve)));
    const ahead = await folds.load(MERCHANT, store.readFrom);
    releaseSlow(stream.slice(0, 10));
    expect((await slow).version).toBe(10);
    ahead.reservations.clear();
    ahead.creditsPostedKurus = 0n;
    const again = await folds.load(MERCHANT, store.readFrom);
    expect(comparable(again)).toEqual(comparable(foldMerchantLedger(MERCHANT, stream)));
    expect(store.reads.at(-1)).toBe(31);
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
    expect(comparable(await folds.load(MERCHANT, store.readFrom))).toEqual(
      comparable(foldMerchantLedger(MERCHANT, stream)),
    );
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
