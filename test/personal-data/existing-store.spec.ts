import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ERASED_TEXT, STREAMS, customerIdentities, personalDataPolicy } from '@transfergate/contracts';
import { PersonalDataCodec, SubjectKeys } from '@transfergate/event-store';
import {
  applyRetention,
  encryptExistingStore,
  eraseCustomer,
  exportCustomer,
  replayLedger,
  subjectAccessCsv,
  type ReplayReport,
} from '@transfergate/ledger';
import { MasterKeyProvider } from '@transfergate/security';
import { CB_IBAN, h2hRequest } from '../callbacks/callback-fixture.js';
import { postJson } from '../support/test-app.js';
import { runMixedWorkload, type Workload } from '../replay/replay-workload.js';

/** The workload's one other customer (every other request is Ayşe Yılmaz's, who is erased). */
const OTHER_NAME = 'Zeynep "Zee" O\\Neil \\N \\. Şükrü';
/** A customer of the other merchant, erased by the retention policy. */
const RETAINED_NAME = 'Mehmet Öz';
const MAIN = join(process.cwd(), 'apps/all-in-one/dist/main.js');

/** Runs the built replay command as an operator would (the app's data directory, stopped). */
function cli(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [MAIN, 'replay', '--json', '--no-progress', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  let report: ReplayReport | undefined;
  try {
    report = JSON.parse(result.stdout) as ReplayReport;
  } catch {
    report = undefined;
  }
  return { status: result.status, report, stderr: result.stderr };
}

/**
 * A store written before encryption (the real app's mixed workload, in clear) is upgraded in place,
 * a customer is erased by two admins and another by the retention policy, and the live read models
 * and logs lose the fields while the replay still verifies every chain, rebuilds the same read
 * models, balances and invariants, and reports the erased subjects.
 */
describe('an existing store: upgraded in place, then a customer erased and replayed (PGlite)', () => {
  let w: Workload;
  let before: ReplayReport;
  let codec: PersonalDataCodec;
  let closed = false;
  const masterKey = randomBytes(32);

  beforeAll(async () => {
    w = await runMixedWorkload('pglite');
    before = await replayLedger({ db: w.app.db });
    codec = new PersonalDataCodec(
      await SubjectKeys.open(w.app.db, new MasterKeyProvider(masterKey)),
      personalDataPolicy(),
    );
  }, 240_000);
  afterAll(async () => {
    if (closed) await w?.app.stop().catch(() => undefined);
    else await w?.app.stop();
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

  it('erases a customer with two admins; live read models and logs lose the fields; the replay agrees', async () => {
    const request = {
      erasureId: randomUUID(),
      customer: { name: 'Ayşe Yılmaz', ibans: [CB_IBAN] },
      reason: 'KVKK art. 7 request',
      requestedBy: 'op-admin-1',
    };
    const sameAdmin = await eraseCustomer(w.app.db, w.app.store, codec, { ...request, confirmedBy: 'op-admin-1' });
    expect(sameAdmin).toMatchObject({ errorCode: 'permission_denied' });
    const liveNames = `select customer->>'fullName' as name, count(*)::text as n from rm_transactions group by 1`;
    const namesBefore = Object.fromEntries(
      (await w.app.db.query<{ name: string; n: string }>(liveNames)).rows.map((r) => [r.name, r.n]),
    );
    const callbacksNamed = `select count(*)::text as n from cb_deliveries where body like '%Ayşe%'`;
    expect(Number((await w.app.db.query<{ n: string }>(callbacksNamed)).rows[0]!.n)).toBeGreaterThan(0);

    // The subject access export before: every field held, readable, as JSON and CSV.
    const held = await exportCustomer(w.app.db, codec, request.customer);
    expect(held.identitiesHeld).toBe(2);
    expect(new Set(held.fields.map((f) => `${f.eventType} ${f.field} ${f.value}`))).toEqual(
      new Set([
        'DepositRequested customer.fullName Ayşe Yılmaz',
        'WithdrawalRequested customer.fullName Ayşe Yılmaz',
        `WithdrawalRequested iban ${CB_IBAN}`,
      ]),
    );
    expect(subjectAccessCsv(held).split('\r\n')).toHaveLength(held.fields.length + 2);

    const outcome = await eraseCustomer(w.app.db, w.app.store, codec, { ...request, confirmedBy: 'op-admin-2' });
    if (!('erasure' in outcome)) throw outcome;
    // The deposits' key (name alone) and the withdrawals' (name and IBAN).
    expect(outcome.erasure).toMatchObject({
      keysDestroyed: 2,
      reason: 'KVKK art. 7 request',
      confirmedBy: 'op-admin-2',
    });
    expect(outcome.erasure.transactions).toBe(Number(namesBefore['Ayşe Yılmaz']));
    expect(outcome.callbackLogRows).toBeGreaterThan(0);
    const [record] = await w.app.store.readStream(STREAMS.erasures());
    expect(record!.data).toEqual(outcome.erasure);
    expect(JSON.stringify(record)).not.toContain('Ayşe');

    // Live screens, search, exports and the callback log read from these: the customer is gone.
    const namesAfter = Object.fromEntries(
      (await w.app.db.query<{ name: string; n: string }>(liveNames)).rows.map((r) => [r.name, r.n]),
    );
    expect(namesAfter).toEqual({ [ERASED_TEXT]: namesBefore['Ayşe Yılmaz'], [OTHER_NAME]: namesBefore[OTHER_NAME] });
    expect((await w.app.db.query<{ n: string }>(callbacksNamed)).rows[0]!.n).toBe('0');
    const withdrawalIbans = `select count(*)::text as n from rm_transactions where type = 'withdrawal' and iban <> $1`;
    expect((await w.app.db.query<{ n: string }>(withdrawalIbans, [ERASED_TEXT])).rows[0]!.n).toBe('0');

    const heldAfter = await exportCustomer(w.app.db, codec, request.customer);
    expect(heldAfter.fields).toHaveLength(held.fields.length);
    expect(new Set(heldAfter.fields.map((f) => f.value))).toEqual(new Set([ERASED_TEXT]));
    const other = await exportCustomer(w.app.db, codec, { name: OTHER_NAME });
    expect(other.fields.map((f) => f.value)).toEqual([OTHER_NAME]);

    // The replay rebuilds exactly these rows, with the same chains, invariants and balances.
    const after = await replayLedger({ db: w.app.db, personalData: codec });
    expect(after.comparison).toMatchObject({ skipped: false, differences: [] });
    expect(after.ok).toBe(true);
    expect(after.chain).toMatchObject({ brokenCount: 0, eventsChecked: before.chain.eventsChecked + 2 });
    expect(after.invariants).toEqual([]);
    expect(after.balances).toEqual(before.balances);
    expect(after.personalData).toMatchObject({ erasedSubjects: 2, erased: [{ reason: 'KVKK art. 7 request' }, {}] });
  });

  it('retention erases exactly the customers past their period, per merchant, and none on legal hold', async () => {
    // A customer of the other merchant, written in clear (the live processes do not encrypt yet),
    // taken in by running the upgrade again.
    const created = await postJson(`${w.app.baseUrl}/deposit/bank`, {
      ...h2hRequest({ apiKey: 'ak_test_1', apiSecret: 'sk_test_1' }, `RET-${randomUUID()}`, 300),
      fullname: RETAINED_NAME,
    });
    expect(created.status).toBe(201);
    await w.app.settle();
    expect((await encryptExistingStore(w.app.db, w.app.store, codec, 'pd-upgrade-2')).eventsRewritten).toBe(1);

    const keys = codec.keys;
    const zeynep = keys.subjectIdOf(customerIdentities({ name: OTHER_NAME })[0]!);
    const mehmet = keys.subjectIdOf(customerIdentities({ name: RETAINED_NAME })[0]!);
    const yearsOn = (years: number) => new Date(Date.now() + years * 366 * 24 * 3_600_000);
    const due = async (years: number) =>
      (await keys.subjectsPastRetention(yearsOn(years), 8)).map((s) => s.subjectId).sort();
    await keys.setRetentionYears(w.merchantId, 10);
    expect(await due(7)).toEqual([]);
    expect(await due(9)).toEqual([mehmet]);
    expect(await due(11)).toEqual([mehmet, zeynep].sort());

    await keys.placeLegalHold(mehmet, { reason: 'MASAK inquiry', placedBy: 'op-admin-1' });
    expect(await due(11)).toEqual([zeynep]);
    expect(await applyRetention(w.app.db, w.app.store, codec, { runId: randomUUID(), asOf: yearsOn(9) })).toBeNull();
    expect(await keys.liftLegalHold(mehmet)).toBe(true);

    // A key written after the listing (another process's first write: its cache missed) is kept.
    const [listed] = await keys.subjectsPastRetention(yearsOn(9), 8);
    const otherProcess = await SubjectKeys.open(w.app.db, new MasterKeyProvider(masterKey));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await otherProcess.keyForWrite(mehmet);
    const guarded = await keys.erase(mehmet, { reason: 'retention', erasedBy: 'retention' }, listed!);
    expect(guarded).toBe(0);

    const applied = await applyRetention(w.app.db, w.app.store, codec, { runId: randomUUID(), asOf: yearsOn(9) });
    expect(applied).toMatchObject({ defaultYears: 8, subjectIds: [mehmet], transactions: 1 });
    const names = `select customer->>'fullName' as name from rm_transactions where customer->>'fullName' <> $1`;
    expect(new Set((await w.app.db.query<{ name: string }>(names, [ERASED_TEXT])).rows.map((r) => r.name))).toEqual(
      new Set([OTHER_NAME]),
    );
    const after = await replayLedger({ db: w.app.db, personalData: codec });
    expect(after.comparison).toMatchObject({ skipped: false, differences: [] });
    expect(after.ok).toBe(true);
    expect(after.personalData?.erasedSubjects).toBe(3);
  });

  it('the replay command decrypts with the master key it is given, and refuses to run without it', async () => {
    await w.app.close();
    closed = true;
    const ok = cli(['--data-dir', w.dataDir], { TRANSFERGATE_SECRET_KEY: masterKey.toString('base64') });
    expect({ status: ok.status, stderr: ok.stderr }).toEqual({ status: 0, stderr: '' });
    expect(ok.report?.personalData?.erasedSubjects).toBe(3);
    const refused = cli(['--data-dir', w.dataDir], { TRANSFERGATE_SECRET_KEY: randomBytes(32).toString('base64') });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/wrapped by master key .*TRANSFERGATE_SECRET_KEY/);
  });
});
