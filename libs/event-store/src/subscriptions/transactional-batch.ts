import type { SqlDatabase, SqlExecutor } from '../sql/sql-database.js';
import {
  MAX_DEFERRED_WRITES,
  MAX_JOINED_PARAM_CHARS,
  joinWrites,
  paramChars,
  type BatchExecutor,
  type Statement,
} from './batch-statement.js';

/** A transaction opened on the handler's first immediate query and held until the batch ends. */
interface OpenTransaction {
  tx: Promise<SqlExecutor>;
  /** Ends the transaction's work: commits, or rolls back with `error`. */
  finish(error?: unknown): void;
  done: Promise<void>;
}

function openTransaction(db: SqlDatabase): OpenTransaction {
  let resolveTx!: (tx: SqlExecutor) => void;
  let rejectTx!: (error: unknown) => void;
  const tx = new Promise<SqlExecutor>((resolve, reject) => {
    resolveTx = resolve;
    rejectTx = reject;
  });
  // Awaited by every query; a transaction that never opens must not also be an unhandled rejection.
  tx.catch(() => undefined);
  let finish!: (error?: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = (error) => (error === undefined ? resolve() : reject(error));
  });
  const done = db.transaction(async (executor) => {
    resolveTx(executor);
    await finished;
  });
  // A connection or BEGIN that fails before the work starts fails the queries waiting for it.
  done.catch(rejectTx);
  return { tx, finish, done };
}

/**
 * One batch of a transactional consumer, atomic with its checkpoint. The handler's deferred writes
 * and `closing` (the checkpoint save) are sent as one statement (joinWrites). A handler that only
 * defers (a batch of new deposits: nothing to read back) costs exactly that statement, one round
 * trip and one commit, without BEGIN and COMMIT. A handler that queries runs in a transaction
 * opened at its first query, and the joined statement ends that transaction before its commit.
 * Answers the joined statement's rows (`closing`'s SELECT), once committed.
 */
export async function runTransactionalBatch(
  db: SqlDatabase,
  handle: (tx: BatchExecutor) => Promise<void>,
  closing: Statement,
): Promise<Array<Record<string, unknown>>> {
  const deferred: Statement[] = [];
  let open: OpenTransaction | undefined;
  const executor: BatchExecutor = {
    async query(sql, params) {
      open ??= openTransaction(db);
      return (await open.tx).query(sql, params);
    },
    defer(sql, params) {
      deferred.push({ sql, params: [...params] });
    },
  };
  try {
    await handle(executor);
  } catch (error) {
    if (open) {
      open.finish(error);
      await open.done.catch(() => undefined);
    }
    throw error;
  }
  // Past the bounds, the oldest deferred writes go one by one in the transaction (statement imports).
  let joinedFrom = deferred.length;
  let chars = paramChars(closing);
  while (joinedFrom > 0 && deferred.length - joinedFrom < MAX_DEFERRED_WRITES) {
    const next = chars + paramChars(deferred[joinedFrom - 1]!);
    if (next > MAX_JOINED_PARAM_CHARS && joinedFrom < deferred.length) break;
    chars = next;
    joinedFrom--;
  }
  const alone = deferred.slice(0, joinedFrom);
  const joined = joinWrites(deferred.slice(joinedFrom), closing);
  if (!open && alone.length === 0) return (await db.query(joined.sql, joined.params)).rows;
  const transaction = open ?? openTransaction(db);
  let rows: Array<Record<string, unknown>>;
  try {
    const tx = await transaction.tx;
    for (const write of alone) await tx.query(write.sql, write.params);
    rows = (await tx.query(joined.sql, joined.params)).rows;
    transaction.finish();
  } catch (error) {
    transaction.finish(error);
    await transaction.done.catch(() => undefined);
    throw error;
  }
  await transaction.done;
  return rows;
}
