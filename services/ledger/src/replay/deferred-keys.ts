import type { SqlExecutor } from '@transfergate/event-store';

/**
 * The tables the memory projection loads in bulk: one row per transaction and per transfer, so
 * a million events write about 600,000 rows into them.
 */
export const BULK_TABLES: readonly string[] = Object.freeze(['rm_transactions', 'rm_transfers']);

interface KeyStatements {
  take_off: string;
  restore: string;
}

/**
 * The primary keys, unique constraints and indexes of the scratch schema's bulk tables, taken off
 * while the rows are loaded and put back before anything reads those tables by key.
 *
 * Why: every loaded row was an insert into each b-tree of its table (three for a transaction, two
 * for a transfer), and the random UUID keys made each insert a descent to a page nobody had
 * touched for a while. Loading the bench's
 * 307,692 transactions and as many transfers from a file took the server 3.5 s and 2.2 s with
 * their keys, 1.5 s and 0.7 s without, and building the keys afterwards from the sorted rows
 * 0.4 s and 0.1 s.
 *
 * What it keeps: a duplicate key still fails the replay, when the key is put back ("could not
 * create unique index") instead of at the row's insert. The definitions are read from the catalog
 * after the scratch schema's tables exist, so they are the read models' own and nothing here
 * repeats them.
 */
export class DeferredKeys {
  private restored: Promise<void> | undefined;

  private constructor(private readonly restoreStatements: readonly string[]) {}

  /** Takes the keys and indexes of `tables` (in `tx`'s current schema) off, remembering how to put them back. */
  static async takeOff(tx: SqlExecutor, tables: readonly string[]): Promise<DeferredKeys> {
    // Constraints first and indexes after when putting back; the reverse when taking off (an index
    // that backs a constraint goes with its constraint).
    const { rows } = await tx.query<KeyStatements>(
      `select take_off, restore from (
         select 0 as step, c.relname as table_name, con.conname as name,
                format('alter table %I.%I drop constraint %I', n.nspname, c.relname, con.conname) as take_off,
                format('alter table %I.%I add constraint %I %s', n.nspname, c.relname, con.conname,
                       pg_get_constraintdef(con.oid)) as restore
         from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and c.relname = any($1::text[]) and con.contype in ('p', 'u')
         union all
         select 1, c.relname, i.relname, format('drop index %I.%I', n.nspname, i.relname), pg_get_indexdef(i.oid)
         from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class c on c.oid = x.indrelid
           join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and c.relname = any($1::text[])
           and not exists (select 1 from pg_constraint con where con.conindid = i.oid)
       ) keys order by step, table_name, name`,
      [tables],
    );
    for (const row of [...rows].reverse()) await tx.query(row.take_off);
    return new DeferredKeys(rows.map((row) => row.restore));
  }

  /**
   * Puts every key and index back, once: later calls wait for the first. `tx` must be a
   * transaction no concurrent write to these tables holds back (the loads are awaited first). If
   * `tx` fails after this, the keys roll back with it, but then the replay has failed too.
   */
  restore(tx: SqlExecutor): Promise<void> {
    this.restored ??= (async () => {
      for (const statement of this.restoreStatements) await tx.query(statement);
    })();
    return this.restored;
  }
}
