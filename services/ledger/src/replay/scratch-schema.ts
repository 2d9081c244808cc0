import { randomBytes } from 'node:crypto';
import type { SqlDatabase, SqlExecutor } from '@transfergate/event-store';
import { READ_MODEL_SCHEMA } from '../read-models/schema.js';

/**
 * The panel's listing indexes on rm_transactions serve no replay query (the comparison and the
 * invariants read whole tables) and would only slow the rebuild's writes; keys, unique constraints
 * and the transfers-by-transaction index (settling reservations) stay.
 */
const PANEL_LISTING_INDEX = /^create index if not exists rm_transactions_\w+ on rm_transactions /;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

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
  private constructor(
    private readonly db: SqlDatabase,
    readonly name: string,
  ) {}

  static async create(db: SqlDatabase): Promise<ScratchSchema> {
    const scratch = new ScratchSchema(db, `tg_replay_${process.pid}_${randomBytes(4).toString('hex')}`);
    await db.query(`create schema ${quoteSchema(scratch.name)}`);
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

  /** Runs `work` in one transaction whose unqualified names resolve to the scratch schema first, then `fallback`. */
  run<T>(work: (tx: SqlExecutor) => Promise<T>, fallback?: string): Promise<T> {
    return this.db.transaction(async (tx) => {
      const path = [quoteSchema(this.name), ...(fallback ? [quoteSchema(fallback)] : [])].join(', ');
      await tx.query(`set local search_path to ${path}`);
      return work(tx);
    });
  }

  async drop(): Promise<void> {
    await this.db.query(`drop schema if exists ${quoteSchema(this.name)} cascade`);
  }
}
