/**
 * Keeps PGlite's cached generic plans in step with the tables' sizes. A prepared statement's
 * generic plan is made once, from the table sizes of that moment, and PostgreSQL replans only on an
 * invalidation (DDL, VACUUM, ANALYZE), which PGlite, without autovacuum, never gets: a plan made
 * while es_streams was empty kept scanning it as it grew (a group append doubled in cost within
 * 6,000 deposits). So every `checkEveryRuns` statements the sizes are read, and once some table
 * has more than doubled since the plans were made, every cached plan is discarded: each statement
 * is planned again, once, at its next run. Tables double a few dozen times in their life, so this
 * is a handful of replans per statement, for plans that are never more than 2x stale.
 */
export const PLAN_CHECK_EVERY_RUNS = 1_024;

/** The planner counts an empty, never-vacuumed table as 10 pages: below that a table "has not grown". */
const PLANNER_MIN_PAGES = 10;

/** User tables and their size in pages (what the planner reads when it plans). */
const TABLE_PAGES_SQL = `select c.oid::int as oid, (pg_relation_size(c.oid) / 8192)::int as pages
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'm') and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')`;

export class PlanFreshness {
  private runs = 0;
  /** Table → its pages when the cached plans were made (absent: before any plan, 0). */
  private plannedPages = new Map<number, number>();
  private discardCount = 0;

  constructor(
    /** Runs a statement of its own (the size read, the discard) on the same connection. */
    private readonly query: <Row>(sql: string) => Promise<Row[]>,
    private readonly checkEveryRuns = PLAN_CHECK_EVERY_RUNS,
  ) {
    if (!Number.isInteger(checkEveryRuns) || checkEveryRuns < 1)
      throw new RangeError('checkEveryRuns must be a positive integer');
  }

  /** Times every cached plan was discarded so far (tests, logs). */
  get discards(): number {
    return this.discardCount;
  }

  /**
   * Counts one statement; when a check is due and `canCheck` (outside a transaction, where a
   * failed statement cannot have aborted anything), compares the sizes and discards stale plans.
   */
  async beforeRun(canCheck: boolean): Promise<void> {
    this.runs++;
    if (!canCheck || this.runs < this.checkEveryRuns) return;
    this.runs = 0;
    const rows = await this.query<{ oid: number; pages: number }>(TABLE_PAGES_SQL);
    const grown = rows.some(
      ({ oid, pages }) => pages > 2 * Math.max(this.plannedPages.get(oid) ?? 0, PLANNER_MIN_PAGES),
    );
    if (!grown) return;
    await this.query('discard plans');
    this.discardCount++;
    this.plannedPages = new Map(rows.map(({ oid, pages }) => [oid, pages]));
  }
}
