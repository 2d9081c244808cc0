import { randomUUID } from 'node:crypto';
import {
  PostgresEventStore,
  WrongExpectedVersionError,
  sqlState,
  sqlTable,
  type AppendResult,
  type NewEvent,
  type SqlDatabase,
} from '../src/index.js';

const event = (data: unknown = {}): NewEvent => ({ eventId: randomUUID(), type: 'Alongside', schemaVersion: 1, data });
const stream = (label: string) => `side-${label}-${randomUUID()}`;
const rows = (...notes: string[]) => ({
  table: 'side_rows',
  columns: { id: 'uuid', note: 'text' },
  rows: notes.map((note) => ({ id: randomUUID(), note })),
  recordedAtColumns: ['recorded_at'],
});

type Settled = PromiseSettledResult<AppendResult[]>;
const ok = (outcome: Settled | undefined): AppendResult[] => {
  if (outcome?.status !== 'fulfilled') throw new Error(`expected success, got ${String(outcome?.reason)}`);
  return outcome.value;
};

/**
 * Rows alongside an append (AppendOptions.alongside): written in the events' own transaction, only
 * for a caller whose events are written, grouped or alone, never on a replay.
 */
export function describeRowsAlongside(adapter: string, open: () => Promise<SqlDatabase>): void {
  describe(`rows alongside an append on ${adapter}`, () => {
    let db: SqlDatabase;
    let store: PostgresEventStore;
    const notes = async (...wanted: string[]) =>
      (
        await db.query<{ note: string }>(
          'select note from side_rows where note in (select jsonb_array_elements_text($1::jsonb)) order by note',
          [JSON.stringify(wanted)],
        )
      ).rows.map((r) => r.note);

    beforeAll(async () => {
      db = await open();
      // One group at a time: the callers of one turn form one group.
      store = await PostgresEventStore.create(db, { maxGroupsInFlight: 1, maxWritesPerGroup: 128 });
      await db.exec(`create table if not exists side_rows (id uuid primary key, note text not null unique,
        recorded_at timestamptz);
        create table if not exists side_keys (key text primary key)`);
    });
    afterAll(async () => {
      await db?.close();
    });

    it("writes a grouped caller's rows only if its events are written, stamped with their recorded time", async () => {
      const stale = stream('stale');
      await store.append(stale, [event()], 'no_stream');
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(stream) as [string, string, string, string];
      const tag = randomUUID();
      const groupsBefore = store.appendGroupsWritten;
      const outcomes = await Promise.allSettled([
        store.appendMany([{ streamId: a, events: [event()], expectedVersion: 'no_stream' }], {
          alongside: rows(`${tag}-a1`),
        }),
        // Its first write would succeed, its second is stale: nothing of it lands, rows included.
        store.appendMany(
          [
            { streamId: b, events: [event()], expectedVersion: 'no_stream' },
            { streamId: stale, events: [event()], expectedVersion: 'no_stream' },
          ],
          { alongside: rows(`${tag}-b1`) },
        ),
        store.appendMany([{ streamId: c, events: [event(), event()], expectedVersion: 'no_stream' }], {
          alongside: rows(`${tag}-c1`, `${tag}-c2`),
        }),
        store.appendMany([{ streamId: d, events: [event()], expectedVersion: 'no_stream' }]),
      ]);
      expect(store.appendGroupsWritten - groupsBefore).toBe(1);
      expect(ok(outcomes[0])[0]!.idempotentReplay).toBe(false);
      expect(outcomes[1]!.status === 'rejected' && outcomes[1].reason).toBeInstanceOf(WrongExpectedVersionError);
      expect(ok(outcomes[2])[0]!.nextVersion).toBe(2);
      ok(outcomes[3]);
      expect(await notes(`${tag}-a1`, `${tag}-b1`, `${tag}-c1`, `${tag}-c2`)).toEqual([
        `${tag}-a1`,
        `${tag}-c1`,
        `${tag}-c2`,
      ]);
      expect(await store.readStream(b)).toEqual([]);

      // The stamp is the events' createdAt exactly as a reader of the events gets it.
      const [first] = await store.readStream(a);
      const { rows: stamped } = await db.query<{ at: string }>(
        `select to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at from side_rows
         where note = $1`,
        [`${tag}-a1`],
      );
      expect(stamped[0]!.at).toBe(first!.createdAt);
    });

    it('writes each caller of one group with its own column declaration', async () => {
      const tag = randomUUID();
      const groupsBefore = store.appendGroupsWritten;
      await Promise.all([
        store.appendMany([{ streamId: stream('stamped'), events: [event()], expectedVersion: 'no_stream' }], {
          alongside: rows(`${tag}-stamped`),
        }),
        store.appendMany([{ streamId: stream('plain'), events: [event()], expectedVersion: 'no_stream' }], {
          alongside: {
            table: 'side_rows',
            columns: { id: 'uuid', note: 'text' },
            rows: [{ id: randomUUID(), note: `${tag}-plain` }],
          },
        }),
      ]);
      expect(store.appendGroupsWritten - groupsBefore).toBe(1);
      const { rows: written } = await db.query<{ note: string; stamped: boolean }>(
        `select note, recorded_at is not null as stamped from side_rows where note like $1 order by note`,
        [`${tag}-%`],
      );
      expect(written).toEqual([
        { note: `${tag}-plain`, stamped: false },
        { note: `${tag}-stamped`, stamped: true },
      ]);
    });

    it('writes a lone caller’s rows, and a retry of its events writes nothing, rows included', async () => {
      const s = stream('lone');
      const tag = randomUUID();
      const events = [event({ once: true })];
      const [first] = await store.appendMany([{ streamId: s, events, expectedVersion: 'no_stream' }], {
        alongside: rows(`${tag}-first`),
      });
      expect(first!.idempotentReplay).toBe(false);
      const [retry] = await store.appendMany([{ streamId: s, events, expectedVersion: 'no_stream' }], {
        alongside: rows(`${tag}-retry`),
      });
      expect(retry).toMatchObject({ idempotentReplay: true, nextVersion: 1 });
      expect(await notes(`${tag}-first`, `${tag}-retry`)).toEqual([`${tag}-first`]);
    });

    it("fails a caller whose row breaks its table's constraint, alone and with the table's error", async () => {
      const tag = randomUUID();
      await store.appendMany([{ streamId: stream('taken'), events: [event()], expectedVersion: 'no_stream' }], {
        alongside: rows(`${tag}-taken`),
      });
      const [bad, good] = [stream('bad'), stream('good')];
      const failedBefore = store.appendGroupsFailed;
      const outcomes = await Promise.allSettled([
        store.appendMany([{ streamId: bad, events: [event()], expectedVersion: 'no_stream' }], {
          alongside: rows(`${tag}-taken`),
        }),
        store.appendMany([{ streamId: good, events: [event()], expectedVersion: 'no_stream' }], {
          alongside: rows(`${tag}-good`),
        }),
      ]);
      // The group's statement failed as a whole; each caller was then written alone.
      expect(store.appendGroupsFailed - failedBefore).toBe(1);
      const error = outcomes[0]!.status === 'rejected' ? outcomes[0].reason : undefined;
      expect(sqlState(error)).toBe('23505');
      expect(sqlTable(error)).toBe('side_rows');
      expect(await store.readStream(bad)).toEqual([]);
      ok(outcomes[1]);
      expect(await notes(`${tag}-good`)).toEqual([`${tag}-good`]);
    });

    it("writes a caller's rows of two tables with its events, and none of them when the second table refuses one", async () => {
      const keys = (...wanted: string[]) =>
        db
          .query<{ key: string }>(
            'select key from side_keys where key in (select jsonb_array_elements_text($1::jsonb)) order by key',
            [JSON.stringify(wanted)],
          )
          .then((r) => r.rows.map((row) => row.key));
      const keyRows = (key: string) => ({ table: 'side_keys', columns: { key: 'text' }, rows: [{ key }] });
      const tag = randomUUID();
      const [first, second, third] = [stream('k1'), stream('k2'), stream('k3')];
      await store.appendMany([{ streamId: first, events: [event()], expectedVersion: 'no_stream' }], {
        alongside: [rows(`${tag}-first`), keyRows(`${tag}-key`)],
      });
      expect(await notes(`${tag}-first`)).toEqual([`${tag}-first`]);
      expect(await keys(`${tag}-key`)).toEqual([`${tag}-key`]);
      // Grouped with a caller that takes a fresh key: the second table's primary key refuses the
      // reused one, and that caller alone fails, with side_keys' error; its side_rows row and its
      // events are not written. The other caller's are.
      const failedBefore = store.appendGroupsFailed;
      const outcomes = await Promise.allSettled([
        store.appendMany([{ streamId: second, events: [event()], expectedVersion: 'no_stream' }], {
          alongside: [rows(`${tag}-second`), keyRows(`${tag}-key`)],
        }),
        store.appendMany([{ streamId: third, events: [event()], expectedVersion: 'no_stream' }], {
          alongside: [rows(`${tag}-third`), keyRows(`${tag}-fresh`)],
        }),
      ]);
      expect(store.appendGroupsFailed - failedBefore).toBe(1);
      const error = outcomes[0]!.status === 'rejected' ? outcomes[0].reason : undefined;
      expect(sqlState(error)).toBe('23505');
      expect(sqlTable(error)).toBe('side_keys');
      expect(await store.readStream(second)).toEqual([]);
      expect(await notes(`${tag}-second`)).toEqual([]);
      ok(outcomes[1]);
      expect(await notes(`${tag}-third`)).toEqual([`${tag}-third`]);
      expect(await keys(`${tag}-key`, `${tag}-fresh`)).toEqual([`${tag}-fresh`, `${tag}-key`]);
      // Bounded: at most four tables per append.
      await expect(
        store.appendMany([{ streamId: stream('k5'), events: [event()], expectedVersion: 'no_stream' }], {
          alongside: Array.from({ length: 5 }, (_, i) => keyRows(`${tag}-bound-${i}`)),
        }),
      ).rejects.toThrow(RangeError);
    });

    it('parallel callers with rows: every row once, each with its own written stream', async () => {
      const parallel = await PostgresEventStore.create(db);
      const tag = randomUUID();
      const callers = Array.from({ length: 60 }, (_, i) => ({ streamId: stream(`p${i}`), note: `${tag}-${i}` }));
      const results = await Promise.all(
        callers.map(({ streamId, note }) =>
          parallel.appendMany([{ streamId, events: [event({ note })], expectedVersion: 'no_stream' }], {
            alongside: rows(note),
          }),
        ),
      );
      expect(results.every(([r]) => r!.idempotentReplay === false)).toBe(true);
      expect(await notes(...callers.map((c) => c.note))).toEqual(callers.map((c) => c.note).sort());
      for (const { streamId, note } of callers.slice(0, 5)) {
        expect((await parallel.readStream(streamId)).map((e) => e.data)).toEqual([{ note }]);
      }
    });

    it('checks a declaration that can still change on every append, a frozen one once for all', async () => {
      const tag = randomUUID();
      const write = () => [{ streamId: stream('declared'), events: [event()], expectedVersion: 'no_stream' as const }];
      const mutable: Record<string, string> = { id: 'uuid', note: 'text' };
      await store.appendMany(write(), {
        alongside: { table: 'side_rows', columns: mutable, rows: [{ id: randomUUID(), note: `${tag}-m` }] },
      });
      // Found plain once, then changed: the change is checked too, never spliced into SQL.
      mutable['note) values (null); --'] = 'text';
      const refused = write();
      await expect(
        store.appendMany(refused, {
          alongside: { table: 'side_rows', columns: mutable, rows: [{ id: randomUUID(), note: `${tag}-x` }] },
        }),
      ).rejects.toThrow(RangeError);
      expect(await store.readStream(refused[0]!.streamId)).toEqual([]);
      // Two frozen declarations alike, and one of them twice, in one group: each caller's row once.
      const frozen = Object.freeze({ id: 'uuid', note: 'text' });
      const alike = Object.freeze({ id: 'uuid', note: 'text' });
      const groupsBefore = store.appendGroupsWritten;
      await Promise.all(
        [frozen, alike, frozen].map((columns, i) =>
          store.appendMany(write(), {
            alongside: { table: 'side_rows', columns, rows: [{ id: randomUUID(), note: `${tag}-f${i}` }] },
          }),
        ),
      );
      expect(store.appendGroupsWritten - groupsBefore).toBe(1);
      expect(await notes(`${tag}-m`, `${tag}-x`, `${tag}-f0`, `${tag}-f1`, `${tag}-f2`)).toEqual([
        `${tag}-f0`,
        `${tag}-f1`,
        `${tag}-f2`,
        `${tag}-m`,
      ]);
    });

    it('refuses a table or column that is not a plain identifier, and an empty or oversized row set', async () => {
      const write = [{ streamId: stream('refused'), events: [event()], expectedVersion: 'no_stream' as const }];
      await expect(
        store.appendMany(write, {
          alongside: { table: 'side_rows; drop table x', columns: { id: 'uuid' }, rows: [{}] },
        }),
      ).rejects.toThrow(RangeError);
      await expect(
        store.appendMany(write, {
          alongside: { table: 'side_rows', columns: { id: 'uuid' }, rows: [{}], recordedAtColumns: ['"x"'] },
        }),
      ).rejects.toThrow(RangeError);
      await expect(
        store.appendMany(write, { alongside: { table: 'side_rows', columns: { id: 'uuid' }, rows: [] } }),
      ).rejects.toThrow(RangeError);
      const many = Array.from({ length: 257 }, () => ({ id: randomUUID(), note: randomUUID() }));
      await expect(
        store.appendMany(write, {
          alongside: { table: 'side_rows', columns: { id: 'uuid', note: 'text' }, rows: many },
        }),
      ).rejects.toThrow(RangeError);
      expect(await store.readStream(write[0]!.streamId)).toEqual([]);
    });
  });
}
