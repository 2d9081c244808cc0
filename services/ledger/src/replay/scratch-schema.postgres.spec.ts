import { openPglite, openPostgres, type SqlDatabase, type SqlExecutor } from '@transfergate/event-store';
import { TEST_DATABASE_URL } from '../../../../test/support/postgres.js';
import { ownScratchSchemas } from '../../../../test/support/scratch-schemas.js';
import { SCRATCH_LEASE, ScratchSchema } from './scratch-schema.js';

/** A database whose transactions fail at the first statement that names `table`. */
function failingAt(db: SqlDatabase, table: string): SqlDatabase {
  const failing = Object.create(db) as SqlDatabase;
  failing.transaction = (work) =>
    db.transaction((tx) => {
      const wrapped: SqlExecutor = Object.create(tx) as SqlExecutor;
      wrapped.query = ((sql: string, params?: unknown[]) =>
        sql.includes(table)
          ? Promise.reject(new Error(`refused: ${table}`))
          : tx.query(sql, params)) as SqlExecutor['query'];
      return work(wrapped);
    });
  return failing;
}

/**
 * What a replay killed with SIGKILL leaves behind: its schema and its claim, no longer renewed.
 * Named with a pid no process of this test has, so no other suite's replay is mistaken for it.
 */
async function leftBehind(db: SqlDatabase, name: string, claimEndsInMs: number | 'never' | 'none'): Promise<void> {
  await db.exec(`create schema "${name}"; create table "${name}".rm_transactions (transaction_id uuid primary key)`);
  if (claimEndsInMs === 'none') return;
  await db.exec(`create table "${name}".replay_lease (until timestamptz not null)`);
  await db.query(
    claimEndsInMs === 'never'
      ? `insert into "${name}".replay_lease (until) values ('infinity')`
      : `insert into "${name}".replay_lease (until) values (now() + $1::int * interval '1 millisecond')`,
    claimEndsInMs === 'never' ? [] : [claimEndsInMs],
  );
}

const schemaExists = async (db: SqlDatabase, name: string) =>
  (await db.query(`select 1 from pg_namespace where nspname = $1`, [name])).rows.length === 1;

const claimOf = async (db: SqlDatabase, name: string) =>
  (
    await db.query<{ ms: number }>(
      `select (extract(epoch from (until - now())) * 1000)::float8 as ms from "${name}".replay_lease`,
    )
  ).rows[0]!.ms;

/** A name unique per run, with a pid that is not this process's (see leftBehind). */
const dead = (tag: string) => `tg_replay_0_${tag}_${Math.random().toString(16).slice(2, 10)}`;

/** A replay that starts (and ends) now leaves `name` where it is. */
async function survivesTheNextReplay(db: SqlDatabase, name: string): Promise<void> {
  const other = await ScratchSchema.create(db);
  await other.drop();
  expect(other.reclaimed).not.toContain(name);
  expect(await schemaExists(db, name)).toBe(true);
}

describe.each([
  ['PostgreSQL', () => openPostgres({ url: TEST_DATABASE_URL, poolSize: 2 })],
  ['PGlite', () => openPglite()],
])('the replay scratch schema (%s)', (_engine, open) => {
  let db: SqlDatabase;

  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('is dropped again when its tables cannot be made (nothing is left behind to name)', async () => {
    const before = await ownScratchSchemas(db);
    await expect(ScratchSchema.create(failingAt(db, 'rm_transfers'))).rejects.toThrow('refused: rm_transfers');
    expect(await ownScratchSchemas(db)).toEqual(before);
  });

  it('holds the read models when it can, and drop removes it', async () => {
    const scratch = await ScratchSchema.create(db);
    expect(await ownScratchSchemas(db)).toContain(scratch.name);
    await scratch.drop();
    expect(await ownScratchSchemas(db)).not.toContain(scratch.name);
  });

  it("drops a killed replay's schema once its claim has run out, and only that one", async () => {
    const expired = dead('expired');
    const running = dead('running');
    const kept = dead('kept');
    const olderBuild = dead('older');
    await leftBehind(db, expired, -1_000);
    await leftBehind(db, running, 60_000);
    await leftBehind(db, kept, 'never');
    await leftBehind(db, olderBuild, 'none');
    try {
      const scratch = await ScratchSchema.create(db);
      await scratch.drop();
      // Gone (a replay of a test file running beside this one may have been the one to drop it).
      expect(await schemaExists(db, expired)).toBe(false);
      for (const name of [running, kept, olderBuild]) expect(scratch.reclaimed).not.toContain(name);
      // A replay still renewing its claim, a schema kept for inspection, and one without a claim
      // (made before the claim existed: nothing tells whether its replay still runs) stay.
      for (const name of [running, kept, olderBuild]) expect(await schemaExists(db, name)).toBe(true);
    } finally {
      for (const name of [expired, running, kept, olderBuild]) await db.exec(`drop schema if exists "${name}" cascade`);
    }
  });

  it('renews its claim while it lives, so no other replay takes it for abandoned', async () => {
    const lease = { leaseMs: 1_500, renewMs: 200 };
    const scratch = await ScratchSchema.create(db, lease);
    try {
      const first = await claimOf(db, scratch.name);
      expect(first).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      // Without renewals the claim would have run out 1.5 s ago.
      expect(await claimOf(db, scratch.name)).toBeGreaterThan(0);
      await survivesTheNextReplay(db, scratch.name);
    } finally {
      await scratch.drop();
    }
  });

  it('keeps a schema its caller asked to keep, past any claim', async () => {
    const scratch = await ScratchSchema.create(db, { leaseMs: 1_000, renewMs: 200 });
    try {
      await scratch.keep();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await survivesTheNextReplay(db, scratch.name);
    } finally {
      await scratch.drop();
    }
  });

  it('refuses a claim that would run out before its renewal', async () => {
    await expect(ScratchSchema.create(db, { leaseMs: 100, renewMs: 100 })).rejects.toThrow(RangeError);
    expect(SCRATCH_LEASE.leaseMs).toBeGreaterThan(SCRATCH_LEASE.renewMs);
  });
});

// PGlite has one role: the roles of a server only.
describe('the replay scratch schema beside other roles (PostgreSQL)', () => {
  let db: SqlDatabase;

  beforeAll(async () => {
    db = await openPostgres({ url: TEST_DATABASE_URL, poolSize: 2 });
  });
  afterAll(async () => {
    await db?.close();
  });

  it("leaves another role's abandoned schema alone and replays all the same", async () => {
    const role = `tg_replay_role_${Math.random().toString(16).slice(2, 10)}`;
    const theirs = dead('theirs');
    const url = new URL(TEST_DATABASE_URL);
    url.username = role;
    url.password = '';
    await db.exec(`create role ${role} login; grant create on database ${url.pathname.slice(1)} to ${role}`);
    await leftBehind(db, theirs, -1_000);
    const asRole = await openPostgres({ url: url.toString(), poolSize: 2 });
    try {
      // Without USAGE on it (the schema another role made): not even looked into.
      const first = await ScratchSchema.create(asRole);
      await first.drop();
      expect(await schemaExists(db, theirs)).toBe(true);
      // With USAGE but not its owner: it cannot be dropped, and the replay goes on.
      await db.exec(
        `grant usage on schema "${theirs}" to ${role}; grant select, update on "${theirs}".replay_lease to ${role}`,
      );
      const second = await ScratchSchema.create(asRole);
      await second.drop();
      expect(second.reclaimed).not.toContain(theirs);
      expect(await schemaExists(db, theirs)).toBe(true);
    } finally {
      await asRole.close();
      await db.exec(`drop schema if exists "${theirs}" cascade; drop owned by ${role}; drop role ${role}`);
    }
  });
});
