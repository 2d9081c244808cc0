import { randomBytes } from 'node:crypto';
import { sqlState, type SqlDatabase, type SqlExecutor } from '@transfergate/event-store';
import { READ_MODEL_SCHEMA } from '../read-models/schema.js';

/**
 * The panel's listing indexes on rm_transactions serve no replay query (the comparison and the
 * invariants read whole tables) and would only slow the rebuild's writes; keys, unique constraints
 * and the transfers-by-transaction index (settling reservations) stay.
 */
const PANEL_LISTING_INDEX = /^create index if not exists rm_transactions_\w+ on rm_transactions /;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Every replay's scratch schema starts with this (`tg_replay_<pid>_<random>`). */
const SCRATCH_PREFIX = 'tg_replay_';

/**
 * The table in a scratch schema that holds its replay's claim on it: one row, `until`, on the
 * database's clock. No primary key, so the read-model comparison (which compares the tables that
 * have one) never takes it for a read model.
 */
const LEASE_TABLE = 'replay_lease';

/**
 * How long a replay's claim on its scratch schema lasts, and how often a running replay renews it.
 * A replay killed before it could drop its schema (SIGKILL, the OOM killer, a lost host) stops
 * renewing, and the next replay that starts after the claim ran out drops the schema. The claim is
 * long beside the renewal because on PGlite the renewal waits for the one connection, which a
 * single long statement of the rebuild may hold for a while.
 */
export interface ScratchLease {
  leaseMs: number;
  renewMs: number;
}
export const SCRATCH_LEASE: ScratchLease = Object.freeze({ leaseMs: 10 * 60_000, renewMs: 60_000 });

/** A claim's end from now, `$1` milliseconds on (the database's clock). */
const LEASE_UNTIL_SQL = `now() + $1::int * interval '1 millisecond'`;

/** Scratch schemas with a claim that one replay looks at before it starts, at most (in name order). */
const MAX_CLAIMS_LOOKED_AT = 100;

/**
 * SQLSTATEs that leave an abandoned scratch schema where it is and let the replay go on: its replay
 * dropped it while this one looked (3F000, 42P01), or it belongs to a role this replay's may not
 * touch (42501: the role that made it, or an owner, drops it).
 */
const NOT_RECLAIMABLE = new Set(['3F000', '42P01', '42501']);

export function quoteSchema(name: string): string {
  if (!SCHEMA_NAME.test(name)) throw new Error(`invalid schema name ${name}`);
  return `"${name}"`;
}

/**
 * A throw-away schema holding a second copy of the read models. The projector writes unqualified
 * table names, so pointing `search_path` at the scratch schema (transaction-local, so a pooled
 * connection never keeps it) makes the real projector code rebuild into it.
 */
export class ScratchSchema {
  private renewal: NodeJS.Timeout | undefined;
  /** The renewal in flight, if any: drop and keep wait for it, so that it never outlives the schema. */
  private renewing: Promise<void> | undefined;

  private constructor(
    private readonly db: SqlDatabase,
    readonly name: string,
    private readonly lease: ScratchLease,
    /** Abandoned scratch schemas of dead replays that this one dropped before it started. */
    readonly reclaimed: readonly string[],
  ) {}

  static async create(db: SqlDatabase, lease: ScratchLease = SCRATCH_LEASE): Promise<ScratchSchema> {
    if (!(Number.isInteger(lease.renewMs) && lease.renewMs > 0 && lease.leaseMs > lease.renewMs)) {
      throw new RangeError('a scratch lease must outlast its renewal interval');
    }
    const reclaimed = await reclaimAbandoned(db);
    const scratch = new ScratchSchema(
      db,
      `${SCRATCH_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`,
      lease,
      reclaimed,
    );
    const quoted = quoteSchema(scratch.name);
    // The schema and its claim in one transaction: nobody sees the schema without its claim.
    await db.transaction(async (tx) => {
      await tx.query(`create schema ${quoted}`);
      await tx.query(`create table ${quoted}.${LEASE_TABLE} (until timestamptz not null)`);
      await tx.query(`insert into ${quoted}.${LEASE_TABLE} (until) values (${LEASE_UNTIL_SQL})`, [lease.leaseMs]);
    });
    scratch.renewal = setInterval(() => scratch.renew(), lease.renewMs);
    scratch.renewal.unref();
    // A failure past this point would leave the schema behind, with no report to name it.
    await scratch.fill().catch(async (error: unknown) => {
      await scratch.drop();
      throw error;
    });
    return scratch;
  }

  /** The read models' tables in the new schema (their listing indexes left out). */
  private fill(): Promise<void> {
    return this.run(async (tx) => {
      // One statement per query: PGlite's parameterised path runs a single statement.
      for (const statement of READ_MODEL_SCHEMA.split(';')) {
        const sql = statement.replace(/--.*$/gm, '').trim();
        if (!sql || PANEL_LISTING_INDEX.test(sql)) continue;
        // A throw-away copy needs no crash safety: unlogged tables skip the WAL for the bulk writes.
        await tx.query(this.db.kind === 'postgres' ? sql.replace(/^create table /, 'create unlogged table ') : sql);
      }
    });
  }

  private renew(): void {
    if (this.renewing) return;
    this.renewing = this.db
      .query(`update ${quoteSchema(this.name)}.${LEASE_TABLE} set until = ${LEASE_UNTIL_SQL}`, [this.lease.leaseMs])
      // A renewal that fails is not the replay's failure: a database the replay has lost fails its
      // own next statement, and a claim that runs out costs at most this schema.
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.renewing = undefined;
      });
  }

  private async stopRenewal(): Promise<void> {
    clearInterval(this.renewal);
    this.renewal = undefined;
    await this.renewing;
  }

  /** Runs `work` in one transaction whose unqualified names resolve to the scratch schema first, then `fallback`. */
  run<T>(work: (tx: SqlExecutor) => Promise<T>, fallback?: string): Promise<T> {
    return this.db.transaction(async (tx) => {
      const path = [quoteSchema(this.name), ...(fallback ? [quoteSchema(fallback)] : [])].join(', ');
      await tx.query(`set local search_path to ${path}`);
      return work(tx);
    });
  }

  /** Keeps the schema for its caller to inspect and drop: no later replay ever reclaims it. */
  async keep(): Promise<void> {
    await this.stopRenewal();
    await this.db.query(`update ${quoteSchema(this.name)}.${LEASE_TABLE} set until = 'infinity'`);
  }

  async drop(): Promise<void> {
    await this.stopRenewal();
    await this.db.query(`drop schema if exists ${quoteSchema(this.name)} cascade`);
  }
}

/**
 * Drops the scratch schemas whose replay's claim ran out: their replays died without dropping them
 * (a replay that ends in any other way drops its schema, or keeps it with a claim that never runs
 * out). Each is checked and dropped in one transaction that first locks its claim, so a renewal in
 * flight finishes before the check. Schemas without a claim (made by builds before the claim) are
 * left alone: nothing tells whether their replay still runs.
 */
async function reclaimAbandoned(db: SqlDatabase): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    // Looking into a schema takes USAGE on it (to_regclass raises without it): the CASE keeps the
    // lookup off the schemas of roles this replay's may not use.
    `select nspname as name from pg_namespace
     where starts_with(nspname, $1)
       and case when has_schema_privilege(oid, 'USAGE')
                then to_regclass(quote_ident(nspname) || '.${LEASE_TABLE}') is not null
                else false end
     order by nspname limit $2`,
    [SCRATCH_PREFIX, MAX_CLAIMS_LOOKED_AT],
  );
  const reclaimed: string[] = [];
  for (const { name } of rows) {
    const quoted = quoteSchema(name);
    try {
      const dropped = await db.transaction(async (tx) => {
        const lease = await tx.query<{ expired: boolean }>(
          `select until < now() as expired from ${quoted}.${LEASE_TABLE} for update`,
        );
        if (!lease.rows.some((row) => row.expired)) return false;
        await tx.query(`drop schema ${quoted} cascade`);
        return true;
      });
      if (dropped) reclaimed.push(name);
    } catch (error) {
      if (!NOT_RECLAIMABLE.has(sqlState(error) ?? '')) throw error;
    }
  }
  return reclaimed;
}
