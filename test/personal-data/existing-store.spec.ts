import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { ERASED_TEXT, STREAMS, customerIdentities, personalDataPolicy } from '@transfergate/contracts';
import { PersonalDataCodec, SubjectKeys } from '@transfergate/event-store';
import { encryptExistingStore, replayLedger, type ReplayReport } from '@transfergate/ledger';
import { MasterKeyProvider } from '@transfergate/security';
import { runMixedWorkload, type Workload } from '../replay/replay-workload.js';

/** The workload's customer that is erased (every other deposit is Ayşe Yılmaz's). */
const ERASED_NAME = 'Zeynep "Zee" O\\Neil \\N \\. Şükrü';

/**
 * A store written before encryption (the real app's mixed workload, in clear) is upgraded in place,
 * one customer is erased, and the replay still verifies every chain, rebuilds the read models with
 * the same balances and invariants, shows the erased customer as erased and reports the subject.
 */
describe('an existing store: upgraded in place, then a customer erased and replayed (PGlite)', () => {
  let w: Workload;
  let before: ReplayReport;
  let codec: PersonalDataCodec;

  beforeAll(async () => {
    w = await runMixedWorkload('pglite');
    before = await replayLedger({ db: w.app.db });
    codec = new PersonalDataCodec(
      await SubjectKeys.open(w.app.db, new MasterKeyProvider(randomBytes(32))),
      personalDataPolicy(),
    );
  }, 240_000);
  afterAll(async () => {
    await w?.app.stop();
    await w?.receiver.close();
    if (w) rmSync(w.dataDir, { recursive: true, force: true });
  });

  it('encrypts every personal field in place and records the old chain heads in the new chain', async () => {
    expect(before.ok).toBe(true);
    // Personal fields in clear: the customer's name, and a withdrawal's IBAN.
    const plain = `select count(*)::text as n from es_events
                    where type in ('DepositRequested', 'WithdrawalRequested')
                      and (data #>> '{customer,fullName}' not like 'pd1.%'
                           or (type = 'WithdrawalRequested' and data ->> 'iban' not like 'pd1.%'))`;
    expect(Number((await w.app.db.query<{ n: string }>(plain)).rows[0]!.n)).toBeGreaterThan(0);
    const positions = `select string_agg(event_id::text || xid::text || seq::text || created_at::text, ',' order by seq) as p from es_events`;
    const positionsBefore = (await w.app.db.query<{ p: string }>(positions)).rows[0]!.p;

    const result = await encryptExistingStore(w.app.db, w.app.store, codec, 'pd-upgrade-1');
    expect(result.eventsRewritten).toBeGreaterThan(0);
    expect((await w.app.db.query<{ n: string }>(plain)).rows[0]!.n).toBe('0');
    // Same events, positions and recorded times: only the personal fields and the hashes changed.
    const positionsAfter = (await w.app.db.query<{ p: string }>(positions)).rows[0]!.p;
    expect(positionsAfter.startsWith(positionsBefore)).toBe(true);
    const [record] = await w.app.store.readStream(STREAMS.storeUpgrade('pd-upgrade-1'));
    expect(record!.data).toEqual({
      epoch: 'pd-upgrade-1',
      eventsRewritten: result.eventsRewritten,
      streamsRechained: result.streamsRechained,
      oldHeadsSha256: result.oldHeadsSha256,
    });
    const { rows: epochs } = await w.app.db.query<{ n: string }>(`select count(*)::text as n from es_chain_epochs`);
    expect(Number(epochs[0]!.n)).toBe(result.streamsRechained);
    // A second run finds nothing left in clear and records nothing.
    expect((await encryptExistingStore(w.app.db, w.app.store, codec, 'pd-upgrade-1')).eventsRewritten).toBe(0);
  });

  it('erases one customer; the replay verifies, rebuilds and balances as before, and reports the subject', async () => {
    let destroyed = 0;
    for (const identity of customerIdentities({ name: ERASED_NAME })) {
      destroyed += await codec.keys.erase(codec.keys.subjectIdOf(identity), {
        reason: 'data subject request',
        erasedBy: 'admin+second-admin',
      });
    }
    expect(destroyed).toBe(1);

    const after = await replayLedger({ db: w.app.db, personalData: codec, compareLive: false, dropScratch: false });
    try {
      expect(after.ok).toBe(true);
      expect(after.chain).toMatchObject({ brokenCount: 0, eventsChecked: before.chain.eventsChecked + 1 });
      expect(after.invariants).toEqual([]);
      expect(after.balances).toEqual(before.balances);
      expect(after.personalData).toMatchObject({ erasedSubjects: 1, erased: [{ reason: 'data subject request' }] });
      const { rows } = await w.app.db.query<{ name: string; n: string }>(
        `select customer->>'fullName' as name, count(*)::text as n from ${after.scratchSchema}.rm_transactions
          group by 1 order by 1`,
      );
      expect(Object.fromEntries(rows.map((r) => [r.name, r.n]))).toEqual({
        [ERASED_TEXT]: '1',
        'Ayşe Yılmaz': expect.any(String),
      });
    } finally {
      await w.app.db.query(`drop schema if exists ${after.scratchSchema} cascade`);
    }
  });
});
