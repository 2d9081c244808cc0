import { randomUUID } from 'node:crypto';
import {
  ApproveTransactionCommand,
  AssignTransactionCommand,
  ChangeAmountCommand,
  DomainError,
  RejectTransactionCommand,
  ReportPaymentCommand,
  RequestDepositCommand,
  RequestWithdrawalCommand,
  type CustomerRef,
  type PanelTransactionRecord,
  type TransactionView,
} from '@transfergate/contracts';
import { START, type RecordedEvent } from '@transfergate/event-store';
import { configIdFor, panelRecordOf, type TransactionReadModel } from '@transfergate/ledger';
import { foldTransaction } from '../../services/ledger/src/domain/transaction.js';
import { issueBootstrap, startTestApp } from '../support/test-app.js';

const MERCHANT = configIdFor.merchant('Acme');
const PROVIDER = configIdFor.provider('acme-h2h');
const INFRA = configIdFor.infrastructure('acme');
const VALID_IBAN = 'TR930006200000000006295317';

export interface ReadModelHarness {
  model: TransactionReadModel;
  close(): Promise<void>;
  /**
   * A defect of the adapter that the suite has found and that is not fixed yet, by name with why.
   * The suite then asserts the defect is STILL there (so fixing it fails the suite until the flag is
   * removed) and checks everything else at full strength. Never used to hide a new failure.
   */
}

/**
 * Real transaction events, written by the real ledger (an embedded app): deposits and withdrawals
 * through every state change the read model shows. Each adapter then builds its read model from
 * these events alone, and is checked against the streams folded by the domain code.
 */
async function recordLedgerEvents(): Promise<RecordedEvent[]> {
  const app = await startTestApp('pglite');
  try {
    await app.provision(issueBootstrap());
    const run = randomUUID().slice(0, 6);
    const origin = (externalId: string, amountKurus: bigint, customer: CustomerRef) => ({
      merchantId: MERCHANT,
      providerId: PROVIDER,
      infrastructureId: INFRA,
      form: 'h2h' as const,
      externalId: `${externalId}-${run}`,
      amountKurus,
      customer,
      requestFingerprint: `fp-${externalId}-${run}`,
      actor: { source: 'test' },
    });
    const actor = { source: 'test', operatorId: 'op-1' };
    const exec = <T>(command: unknown) => app.commands.execute(command as never) as Promise<T>;
    const deposit = (id: string, kurus: bigint, customer: CustomerRef) =>
      exec<TransactionView>(new RequestDepositCommand(origin(id, kurus, customer)));
    const withdrawal = (id: string, kurus: bigint, customer: CustomerRef) =>
      exec<TransactionView>(new RequestWithdrawalCommand({ ...origin(id, kurus, customer), iban: VALID_IBAN }));

    const d1 = await deposit('DEP-A', 150_000n, { fullName: 'Ayşe Yılmaz', username: 'ayse' });
    await exec(new ApproveTransactionCommand({ transactionId: d1.transactionId, actor }));
    const d2 = await deposit('DEP-B', 25_000n, { fullName: 'Mehmet Demir' });
    await exec(new ReportPaymentCommand({ transactionId: d2.transactionId, actor }));
    const d3 = await deposit('DEP-C_100%', 9_900n, { fullName: 'Zeynep Kaya', username: 'zeynep' });
    await exec(new ChangeAmountCommand({ transactionId: d3.transactionId, amountKurus: 12_000n, actor }));
    await exec(new RejectTransactionCommand({ transactionId: d3.transactionId, reason: 'not received', actor }));
    const w1 = await withdrawal('WD-A', 40_000n, { fullName: 'Ayşe Yılmaz' });
    await exec(new AssignTransactionCommand({ transactionId: w1.transactionId, assignee: 'op-2', actor }));
    await exec(new ApproveTransactionCommand({ transactionId: w1.transactionId, actor }));
    await withdrawal('WD-B', 10_000n, { fullName: 'Can Öztürk', username: 'can' });
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => deposit(`DEP-P${i}`, BigInt(1_000 + i), { fullName: `Paralel ${i}` })),
    );

    await app.settle();
    const events: RecordedEvent[] = [];
    let from = START;
    for (;;) {
      const page = await app.store.readAll(from, 1_000);
      if (page.length === 0) break;
      events.push(...page);
      from = page[page.length - 1]!.position;
    }
    return events.filter((event) => event.streamId.startsWith('txn-'));
  } finally {
    await app.stop();
  }
}

/** What the list must show: every stream folded by the domain code, newest first. */
function expectedRecords(events: RecordedEvent[]): PanelTransactionRecord[] {
  const streams = new Map<string, RecordedEvent[]>();
  for (const event of events) streams.set(event.streamId, [...(streams.get(event.streamId) ?? []), event]);
  return [...streams.values()]
    .map((stream) => panelRecordOf(foldTransaction(stream)!.view))
    .sort((a, b) =>
      a.createdAt === b.createdAt ? (a.transactionId < b.transactionId ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
    );
}

export function describeTransactionReadModelContract(adapter: string, open: () => Promise<ReadModelHarness>): void {
  describe(`transaction read model contract on ${adapter}`, () => {
    let harness: ReadModelHarness;
    let model: TransactionReadModel;
    let events: RecordedEvent[];
    let expected: PanelTransactionRecord[];

    beforeAll(async () => {
      events = await recordLedgerEvents();
      expected = expectedRecords(events);
      harness = await open();
      model = harness.model;
      await model.prepare();
      await model.prepare(); // idempotent
      // Uneven batches, as a consumer would hand them over.
      for (let i = 0, size = 1; i < events.length; i += size, size = (size % 5) + 1) {
        await model.apply(events.slice(i, i + size));
      }
    }, 120_000);
    afterAll(async () => {
      await harness?.close();
    });

    it('lists every transaction newest first, each exactly as its folded stream says', async () => {
      expect(expected.length).toBe(11);
      const page = await model.list({ limit: 200 });
      expect(page.nextCursor).toBeNull();
      expect(page.items).toEqual(expected);
      const states = new Set(page.items.map((r) => r.state));
      for (const state of ['approved', 'payment_reported', 'rejected', 'awaiting_payment', 'pending']) {
        expect(states).toContain(state);
      }
      const changed = page.items.find((r) => r.externalId.startsWith('DEP-C_100%'))!;
      expect(changed).toMatchObject({ amountKurus: '12000', originalAmountKurus: '9900', reason: 'not received' });
      const assigned = page.items.find((r) => r.externalId.startsWith('WD-A'))!;
      const folded = expectedRecords(events).find((r) => r.externalId.startsWith('WD-A'))!;
      expect(folded.assignee).toBe('op-2');
      expect(assigned.assignee).toBe('op-2');
    });

    it('applying events again changes nothing; a gap is refused', async () => {
      await model.apply(events);
      await model.apply(events.slice(3, 9));
      expect((await model.list({ limit: 200 })).items).toEqual(expected);
      const streamOf = events.filter((e) => e.streamId === events[0]!.streamId);
      const gap = { ...streamOf[0]!, streamVersion: streamOf.length + 2, type: 'TransactionApproved', data: {} };
      await expect(model.apply([gap])).rejects.toMatchObject({ name: 'ReadModelGapError' });
    });

    it('pages with a cursor: every record exactly once, in order, however small the page', async () => {
      for (const limit of [1, 2, 4]) {
        const seen: PanelTransactionRecord[] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages < 50; pages++) {
          const page = await model.list({ limit, ...(cursor ? { cursor } : {}) });
          expect(page.items.length).toBeLessThanOrEqual(limit);
          seen.push(...page.items);
          if (!page.nextCursor) break;
          cursor = page.nextCursor;
        }
        expect(seen).toEqual(expected);
      }
      await expect(model.list({ limit: 2, cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(DomainError);
      await expect(
        model.list({ limit: 2, cursor: Buffer.from('["x","y"]').toString('base64url') }),
      ).rejects.toMatchObject({ errorCode: 'validation_failed' });
      expect((await model.list({ limit: 0 })).items).toHaveLength(1);
    });

    it('filters by type, state, merchant, provider and time, and searches text literally', async () => {
      const ids = async (filters: Parameters<TransactionReadModel['list']>[0]) =>
        (await model.list(filters)).items.map((r) => r.externalId.replace(/-[0-9a-f]{6}$/, ''));
      const all = expected.map((r) => r.externalId.replace(/-[0-9a-f]{6}$/, ''));
      expect(await ids({ limit: 200, type: 'withdrawal' })).toEqual(all.filter((id) => id.startsWith('WD-')));
      expect(await ids({ limit: 200, state: ['approved', 'rejected'] })).toEqual(
        all.filter((id) => ['DEP-A', 'DEP-C_100%', 'WD-A'].includes(id)),
      );
      expect(await ids({ limit: 200, merchantId: MERCHANT, providerId: PROVIDER })).toEqual(all);
      expect(await ids({ limit: 200, merchantId: 'nobody' })).toEqual([]);
      expect(await ids({ limit: 200, q: 'ayşe' })).toEqual(all.filter((id) => ['DEP-A', 'WD-A'].includes(id)));
      expect(await ids({ limit: 200, q: 'ZEYNEP' })).toEqual(['DEP-C_100%']);
      expect(await ids({ limit: 200, q: '_100%' })).toEqual(['DEP-C_100%']);
      expect(await ids({ limit: 200, q: '_1%' })).toEqual([]); // wildcards are literal
      expect(await ids({ limit: 200, q: 'TR93 0006 2000' })).toEqual(all.filter((id) => id.startsWith('WD-')));
      const numbered = expected.find((r) => r.externalId.startsWith('DEP-B'))!;
      expect(await ids({ limit: 200, q: String(numbered.number) })).toContain('DEP-B');
      const middle = expected[5]!.createdAt;
      expect(await ids({ limit: 200, createdUntil: middle })).toEqual(
        all.filter((_, i) => expected[i]!.createdAt <= middle),
      );
      expect(await ids({ limit: 200, createdFrom: middle })).toEqual(
        all.filter((_, i) => expected[i]!.createdAt >= middle),
      );
      expect(await ids({ limit: 200, createdBefore: middle })).toEqual(
        all.filter((_, i) => expected[i]!.createdAt < middle),
      );
    });

    it('finds a transaction by its integer number, only within its provider when one is given', async () => {
      for (const record of expected) {
        expect(await model.findIdByNumber(String(record.number))).toBe(record.transactionId);
        expect(await model.findIdByNumber(String(record.number), PROVIDER)).toBe(record.transactionId);
        expect(await model.findIdByNumber(String(record.number), 'another-provider')).toBeUndefined();
      }
      expect(await model.findIdByNumber('999999999')).toBeUndefined();
      expect(await model.findIdByNumber('12abc')).toBeUndefined();
    });
  });
}
