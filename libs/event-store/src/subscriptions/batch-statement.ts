import type { SqlExecutor } from '../sql/sql-database.js';

/** One parameterised statement ($1..$n). */
export interface Statement {
  sql: string;
  params: readonly unknown[];
}

/**
 * What a consumer's handler writes to: `query` runs at once (reads, and writes a later read of the
 * same batch depends on); `defer` keeps a write that nothing in the batch reads back, to be sent
 * with the checkpoint in one statement (see joinWrites).
 */
export interface BatchExecutor extends SqlExecutor {
  defer(sql: string, params: readonly unknown[]): void;
}

/** Deferred writes per statement: each is a CTE of one statement (bounded so the text stays small). */
export const MAX_DEFERRED_WRITES = 64;

/**
 * Parameter characters per joined statement: a statement import defers chunks of thousands of rows
 * each, which must not become one message of hundreds of MB.
 */
export const MAX_JOINED_PARAM_CHARS = 8 * 1024 * 1024;

/** Characters of a statement's string parameters (the JSON row sets; scalars count nothing). */
export function paramChars(statement: Statement): number {
  return statement.params.reduce<number>((n, p) => n + (typeof p === 'string' ? p.length : 0), 0);
}

const PLACEHOLDER = /\$(\d+)/g;

/**
 * Several writes and a closing statement as ONE statement: each write becomes a data-modifying
 * CTE, so the server runs them all with one round trip and, outside an explicit transaction, one
 * commit, all or nothing. `closing` is what follows the CTEs: `name as (...), ... select ...`
 * (without `with`), where it may name its own CTEs too. The writes must not depend on each other's
 * effects (CTEs share one snapshot) nor write one row twice: a consumer defers only the blind,
 * disjoint writes of its batch. Placeholders are renumbered; a statement text holding `$$` (a
 * dollar-quoted string, whose `$n` must not be renumbered) is refused.
 */
export function joinWrites(writes: readonly Statement[], closing: Statement): Statement {
  const params: unknown[] = [];
  const shifted = (statement: Statement): string => {
    if (statement.sql.includes('$$')) throw new Error('joinWrites: dollar-quoted text is not supported');
    if (/^\s*with\s/i.test(statement.sql)) throw new Error('joinWrites: a write with its own WITH cannot be nested');
    const offset = params.length;
    params.push(...statement.params);
    return statement.sql.replace(PLACEHOLDER, (_, n: string) => {
      const index = Number(n);
      if (index < 1 || index > statement.params.length) throw new Error(`joinWrites: $${n} has no parameter`);
      return `$${index + offset}`;
    });
  };
  const ctes = writes.map((write, i) => `w${i} as (${shifted(write)})`);
  return { sql: `with ${[...ctes, shifted(closing)].join(',\n')}`, params };
}
