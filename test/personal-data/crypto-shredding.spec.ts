import { randomBytes, randomUUID } from 'node:crypto';
import {
  ERASED_TEXT,
  EVENT_CATALOG,
  STREAMS,
  domainEvent,
  personalDataPolicy,
  customerIdentities,
  type DomainEvent,
} from '@transfergate/contracts';
import {
  ChainVerifier,
  DataKeyMissingError,
  PersonalDataCodec,
  PersonalDataEventStore,
  PostgresEventStore,
  START,
  SubjectKeys,
  auditHead,
  openPglite,
  readAuditBatch,
  verifyHeads,
  type NewEvent,
  type RecordedEvent,
  type SqlDatabase,
  type StreamWrite,
} from '@transfergate/event-store';
import { DataKeyUnwrapError, MasterKeyProvider, PersonalFieldError, RotatingKeyProvider } from '@transfergate/security';

/** Customers in the store, and every how-many-th of them is erased. */
const N_CUSTOMERS = 3_000;
const ERASE_EVERY = 10;
const STREAMS_PER_APPEND = 100;
const MERCHANT = 'merchant-pd';
/** Keys erased: every erased customer's, and the statement-line payer's of those named by name and IBAN. */
const ERASED_KEYS = N_CUSTOMERS / ERASE_EVERY + N_CUSTOMERS / (ERASE_EVERY * 3);
const LIVE_KEYS = N_CUSTOMERS + N_CUSTOMERS / 3 - ERASED_KEYS;

async function verifyChains(db: SqlDatabase): Promise<{ broken: number; checked: number }> {
  const verifier = new ChainVerifier();
  let broken = 0;
  const until = await auditHead(db);
  let after = START;
  for (;;) {
    const batch = await readAuditBatch(db, after, until, 2_000);
    if (batch.length === 0) break;
    for (const e of batch) if (verifier.accept(e)) broken += 1;
    after = batch[batch.length - 1]!.position;
  }
  broken += (await verifyHeads(db, verifier)).length;
  return { broken, checked: verifier.eventsChecked };
}

const newEvent = (event: DomainEvent): NewEvent => ({
  eventId: randomUUID(),
  type: event.type,
  schemaVersion: EVENT_CATALOG[event.type].version,
  data: event.data,
});

function customerOf(i: number) {
  // Every third customer has no merchant user id: named by name and IBAN then.
  const iban = `TR${String(10 + (i % 89)).padStart(2, '0')}0006100519786457${String(i).padStart(6, '0')}`;
  return {
    fullName: `Müşteri Ayşe ${i} Yılmaz`,
    ...(i % 3 === 0 ? {} : { userId: `user-${i}`, username: `ayse${i}` }),
    iban,
  };
}

function depositOf(i: number, transactionId: string) {
  const c = customerOf(i);
  return domainEvent('DepositRequested', {
    merchantId: MERCHANT,
    providerId: 'provider-pd',
    infrastructureId: 'infra-pd',
    form: 'h2h',
    externalId: `ext-${i}`,
    requestFingerprint: 'f'.repeat(64),
    echo: {},
    transactionId,
    number: i + 1,
    amountKurus: String(10_000 + i),
    customer: { fullName: c.fullName, ...(c.userId ? { userId: c.userId, username: c.username } : {}) },
    receivingAccount: {
      bankAccountId: 'acct-1',
      bank: 'Bank',
      bankCode: '00061',
      holderName: 'Gateway Ltd',
      iban: 'TR330006100519786457841326',
      fast: true,
    },
    paymentToken: randomBytes(8).toString('hex'),
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
}

/**
 * Crypto-shredding over a store with thousands of customers: personal fields are stored encrypted
 * under each customer's own key, the hash chains cover the ciphertext, and destroying some keys
 * erases exactly those customers while amounts, postings and every chain stay as they were.
 */
describe('personal data: encrypted per customer, erasable (PGlite)', () => {
  let db: SqlDatabase;
  let raw: PostgresEventStore;
  let master: MasterKeyProvider;
  let keys: SubjectKeys;
  let store: PersonalDataEventStore;
  const transactions: string[] = [];

  beforeAll(async () => {
    db = await openPglite();
    raw = await PostgresEventStore.create(db);
    master = new MasterKeyProvider(randomBytes(32));
    keys = await SubjectKeys.open(db, master);
    store = new PersonalDataEventStore(raw, new PersonalDataCodec(keys, personalDataPolicy()));
    for (let start = 0; start < N_CUSTOMERS; start += STREAMS_PER_APPEND) {
      const writes: StreamWrite[] = [];
      for (let i = start; i < Math.min(N_CUSTOMERS, start + STREAMS_PER_APPEND); i++) {
        const transactionId = randomUUID();
        transactions[i] = transactionId;
        const c = customerOf(i);
        const events = [newEvent(depositOf(i, transactionId))];
        if (i % 2 === 0) {
          events.push(
            newEvent(
              domainEvent('TransactionApproved', {
                transactionId,
                amountKurus: String(10_000 + i),
                fromState: 'awaiting_payment',
                by: { source: 'test' },
              }),
            ),
          );
        }
        writes.push({ streamId: STREAMS.transaction(transactionId), expectedVersion: 'no_stream', events });
        // The same customer's statement line (name and IBAN) for those named by them.
        if (i % 3 === 0) {
          writes.push({
            streamId: `bank-statement-pd-${i}`,
            expectedVersion: 'no_stream',
            events: [
              newEvent(
                domainEvent('StatementLineImported', {
                  lineId: randomUUID(),
                  importId: randomUUID(),
                  bankAccountId: 'acct-1',
                  identity: `ref-${i}`,
                  bookedOn: '2026-12-01',
                  direction: 'credit',
                  amountKurus: String(10_000 + i),
                  description: `EFT ${c.fullName.toUpperCase()}`,
                  counterpartyName: c.fullName.toLocaleUpperCase('tr'),
                  counterpartyIban: c.iban,
                }),
              ),
            ],
          });
        }
      }
      await store.appendMany(writes);
    }
    for (let i = 0; i < N_CUSTOMERS; i += ERASE_EVERY) {
      const c = customerOf(i);
      let destroyed = 0;
      for (const identity of customerIdentities({
        merchantId: MERCHANT,
        userId: c.userId,
        name: c.fullName,
        ibans: [c.iban],
      })) {
        destroyed += await keys.erase(keys.subjectIdOf(identity), {
          reason: 'KVKK request',
          erasedBy: 'admin1+admin2',
        });
      }
      // The deposit's key, and the statement line's of a customer named by name and IBAN.
      expect(destroyed).toBe(i % 3 === 0 ? 2 : 1);
    }
  }, 180_000);
  afterAll(async () => {
    await db?.close();
  });

  it('stores no personal field in clear, in any event', async () => {
    const { rows } = await db.query<{ n: string }>(
      // Ciphertext is base64url, in which a case-blind `ayse1` turns up by chance: it is taken out first.
      `select count(*)::text as n from es_events
        where regexp_replace(data::text, 'pd1\\.[A-Za-z0-9_.-]*', '', 'g') ~* '(müşteri|yilmaz|yılmaz|user-[0-9]|ayse[0-9])'`,
    );
    expect(rows[0]!.n).toBe('0');
    const { rows: keyRows } = await db.query<{ live: string; erased: string }>(
      `select count(*) filter (where erased_at is null)::text as live, count(*) filter (where erased_at is not null)::text as erased
         from pd_data_keys`,
    );
    // One key per customer's deposits, one per payer (name and IBAN) of statement lines.
    expect(keyRows[0]).toEqual({ live: String(LIVE_KEYS), erased: String(ERASED_KEYS) });
  });

  it('verifies every hash chain after the erasures (they cover the ciphertext, which is unchanged)', async () => {
    const expected = N_CUSTOMERS + N_CUSTOMERS / 2 + N_CUSTOMERS / 3;
    expect(await verifyChains(db)).toEqual({ broken: 0, checked: expected });
  });

  it('reads erased customers as [erased] and every other one as written, amounts and states unchanged', async () => {
    let after = START;
    const seen = { erased: 0, readable: 0, lines: 0, approved: 0 };
    let totalKurus = 0n;
    for (;;) {
      const page: RecordedEvent[] = await store.readAll(after, 1_000);
      if (page.length === 0) break;
      after = page[page.length - 1]!.position;
      for (const event of page) {
        if (event.type === 'TransactionApproved') seen.approved += 1;
        if (event.type === 'StatementLineImported') {
          const data = EVENT_CATALOG.StatementLineImported.schema.parse(event.data);
          const i = Number(data.identity.slice(4));
          expect(data.counterpartyName).toBe(
            i % ERASE_EVERY === 0 ? ERASED_TEXT : customerOf(i).fullName.toLocaleUpperCase('tr'),
          );
          expect(data.counterpartyIban).toBe(i % ERASE_EVERY === 0 ? ERASED_TEXT : customerOf(i).iban);
          seen.lines += 1;
        }
        if (event.type !== 'DepositRequested') continue;
        const data = EVENT_CATALOG.DepositRequested.schema.parse(event.data);
        const i = data.number - 1;
        totalKurus += BigInt(data.amountKurus);
        expect(data.amountKurus).toBe(String(10_000 + i));
        expect(data.receivingAccount.holderName).toBe('Gateway Ltd');
        if (i % ERASE_EVERY === 0) {
          expect(data.customer.fullName).toBe(ERASED_TEXT);
          if (i % 3 !== 0) expect(data.customer.userId).toBe(ERASED_TEXT);
          seen.erased += 1;
        } else {
          expect(data.customer).toEqual(depositOf(i, transactions[i]!).data.customer);
          seen.readable += 1;
        }
      }
    }
    expect(seen).toEqual({
      erased: N_CUSTOMERS / ERASE_EVERY,
      readable: N_CUSTOMERS - N_CUSTOMERS / ERASE_EVERY,
      lines: N_CUSTOMERS / 3,
      approved: N_CUSTOMERS / 2,
    });
    expect(totalKurus).toBe(BigInt(N_CUSTOMERS) * 10_000n + BigInt((N_CUSTOMERS * (N_CUSTOMERS - 1)) / 2));
  });

  it('reports the erased subjects with their reason', async () => {
    const erased = await keys.erasedSubjects(10_000);
    expect(await keys.erasedSubjectCount()).toBe(ERASED_KEYS);
    expect(erased).toHaveLength(ERASED_KEYS);
    expect(new Set(erased.map((s) => s.reason))).toEqual(new Set(['KVKK request']));
  });

  it('gives a customer who comes back after an erasure a new key; the old fields stay erased', async () => {
    const transactionId = randomUUID();
    const again = depositOf(0, transactionId);
    await store.append(STREAMS.transaction(transactionId), [newEvent(again)], 'no_stream');
    const [fresh] = await store.readStream(STREAMS.transaction(transactionId));
    expect((fresh!.data as typeof again.data).customer.fullName).toBe(customerOf(0).fullName);
    const [old] = await store.readStream(STREAMS.transaction(transactions[0]!));
    expect((old!.data as typeof again.data).customer.fullName).toBe(ERASED_TEXT);
  });

  it('fails clearly on a wrong master key, a key table not restored, or altered ciphertext; never plaintext', async () => {
    await expect(SubjectKeys.open(db, new MasterKeyProvider(randomBytes(32)))).rejects.toThrow(DataKeyUnwrapError);
    await expect(SubjectKeys.open(db, new MasterKeyProvider(randomBytes(32)))).rejects.toThrow(
      /TRANSFERGATE_SECRET_KEY/,
    );

    // A fresh process (empty caches) on a database restored without this customer's key row.
    const stream = STREAMS.transaction(transactions[1]!);
    const [event] = await raw.readStream(stream);
    const ref = /pd1\.([0-9a-f]{32})\./.exec(JSON.stringify(event!.data))![1]!;
    const { rows: saved } = await db.query(`select * from pd_data_keys where key_ref = $1`, [ref]);
    await db.query(`delete from pd_data_keys where key_ref = $1`, [ref]);
    const cold = new PersonalDataCodec(await SubjectKeys.open(db, master), personalDataPolicy());
    await expect(cold.decrypt([event!])).rejects.toThrow(DataKeyMissingError);
    await expect(cold.decrypt([event!])).rejects.toThrow(/restore the key table with the events/);
    await db.query(`insert into pd_data_keys select * from json_populate_record(null::pd_data_keys, $1::json)`, [
      JSON.stringify(saved[0]),
    ]);
    expect((await cold.decrypt([event!]))[0]!.data).toMatchObject({ customer: { fullName: customerOf(1).fullName } });

    // Ciphertext moved from one event to another does not open (bound to its event and field).
    const [other] = await raw.readStream(STREAMS.transaction(transactions[2]!));
    const [moved] = await raw.readStream(stream);
    await expect(cold.decrypt([{ ...other!, data: moved!.data }])).rejects.toThrow(PersonalFieldError);
  });

  it('re-wraps every data key under a new master key without touching an event', async () => {
    const before = (
      await db.query<{ h: string }>(`select md5(string_agg(encode(hash, 'hex'), '' order by seq)) as h from es_events`)
    ).rows[0]!.h;
    const next = new MasterKeyProvider(randomBytes(32));
    const rotating = await SubjectKeys.open(db, new RotatingKeyProvider(next, master));
    const rewrapped = await rotating.rewrapAll(next);
    // Every live key (the returning customer's too); the subject-index key is counted apart.
    expect(rewrapped).toBe(LIVE_KEYS + 1);
    expect(await rotating.rewrapAll(next)).toBe(0);
    // Only the new master key opens the store now; the old one is refused.
    await expect(SubjectKeys.open(db, master)).rejects.toThrow(DataKeyUnwrapError);
    const reopened = new PersonalDataEventStore(
      raw,
      new PersonalDataCodec(await SubjectKeys.open(db, next), personalDataPolicy()),
    );
    const [event] = await reopened.readStream(STREAMS.transaction(transactions[1]!));
    expect((event!.data as { customer: { fullName: string } }).customer.fullName).toBe(customerOf(1).fullName);
    const after = (
      await db.query<{ h: string }>(`select md5(string_agg(encode(hash, 'hex'), '' order by seq)) as h from es_events`)
    ).rows[0]!.h;
    expect(after).toBe(before);
    expect((await verifyChains(db)).broken).toBe(0);
  });
});
