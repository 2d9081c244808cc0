import { type PGlite, type messages, parse, protocol, types } from '@electric-sql/pglite';
import { Buffer } from 'node:buffer';
import { bindExecuteSync, type BindValue } from './pglite-bind-message.js';
import { parsedReply, textRowsOf, type TextRow } from './pglite-reply.js';
import { PLAN_CHECK_EVERY_RUNS, PlanFreshness } from './pglite-plan-freshness.js';

type DataRowMessage = messages.DataRowMessage;
type RowDescriptionMessage = messages.RowDescriptionMessage;

/**
 * Named prepared statements for PGlite, one per distinct SQL text. PGlite's `query()` sends every
 * statement as the unnamed one, so PostgreSQL parses, analyzes and plans it on every call: in
 * PGlite's WASM that costs more than running it (measured on the deposit's group append, 25
 * events: parse 1.1 ms, bind/plan 2.2 ms, execution 4.2 ms; a one-row checkpoint update 0.6 ms of
 * parse and plan for 0.1 ms of work). A named statement is parsed once and runs a cached generic
 * plan (plan_cache_mode, pglite-database.ts), which PlanFreshness discards whenever a table has
 * doubled. Each call then sends Bind, Execute and Sync as one message, exactly what `query()`
 * sends after its Parse and Describe (built by pglite-bind-message.ts, byte for byte PGlite's
 * own), so parameters are serialized and values parsed by PGlite's own serializers and type
 * parsers: same values. The reply's rows are read from its bytes (pglite-reply.ts); a reply with
 * anything else in it (an error, a notice) goes to PGlite's protocol parser: same errors. Never
 * analyzed, PGlite's planner has no column statistics, so a plan for the actual parameter values
 * would differ from the generic one only by the table sizes it saw.
 *
 * The caller holds PGlite's query lock (`_runExclusiveQuery`) around `run`.
 */
export const MAX_PREPARED_STATEMENTS = 256;

interface Prepared {
  readonly name: string;
  readonly paramTypes: readonly number[];
  /** The result's columns (none for a statement that returns no rows). */
  readonly rowDescription: RowDescriptionMessage | undefined;
}

/** SQLSTATE of "cached plan must not change result type" (a table under a prepared statement changed). */
const FEATURE_NOT_SUPPORTED = '0A000';

export class PglitePreparedStatements {
  /** SQL text → statement, least recently used first (a Map keeps insertion order). */
  private readonly statements = new Map<string, Prepared>();
  private nextId = 1;
  readonly freshness: PlanFreshness;

  constructor(
    private readonly db: PGlite,
    private readonly limit = MAX_PREPARED_STATEMENTS,
    planCheckEveryRuns = PLAN_CHECK_EVERY_RUNS,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    this.freshness = new PlanFreshness((sql) => this.execute(sql, []), planCheckEveryRuns);
  }

  get size(): number {
    return this.statements.size;
  }

  /** One statement; `outsideTransaction` lets it first refresh stale plans (PlanFreshness). */
  async run<Row>(sql: string, params: readonly unknown[] = [], outsideTransaction = false): Promise<Row[]> {
    await this.freshness.beforeRun(outsideTransaction);
    return this.execute<Row>(sql, params);
  }

  private async execute<Row>(sql: string, params: readonly unknown[]): Promise<Row[]> {
    let statement = this.statements.get(sql);
    if (statement) {
      this.statements.delete(sql);
      this.statements.set(sql, statement);
    } else {
      statement = await this.prepare(sql);
    }
    const values = statement.paramTypes.length === 0 ? [] : this.serialize(statement, params);
    const reply = await this.runRaw(bindExecuteSync(statement.name, values, EXECUTE, SYNC));
    const textRows = textRowsOf(reply);
    if (textRows) return rowsOf<Row>(statement, textRows, this.db.parsers);
    // An error or a notice: PGlite's own parser, and its error thrown as execProtocolStream would.
    const { messages, error } = parsedReply(reply);
    if (error) {
      // A table under the statement changed shape: the next call prepares it again.
      if (error.code === FEATURE_NOT_SUPPORTED) await this.forget(sql);
      throw error;
    }
    const dataRows = messages.filter((m): m is DataRowMessage => m.name === 'dataRow').map((m) => m.fields);
    return rowsOf<Row>(statement, dataRows, this.db.parsers);
  }

  /** The bytes PGlite answers a message with (copied: PGlite hands out views of its WASM memory). */
  private async runRaw(message: Uint8Array): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await this.db.execProtocolRawStream(message, {
      syncToFs: false,
      onRawData: (chunk) => {
        chunks.push(Buffer.from(chunk));
      },
    });
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  }

  private async prepare(sql: string): Promise<Prepared> {
    while (this.statements.size >= this.limit) await this.forget(this.statements.keys().next().value!);
    const name = `tg_${this.nextId++}`;
    const messages = await this.db.execProtocolStream(
      concat([protocol.serialize.parse({ name, text: sql }), protocol.serialize.describe({ type: 'S', name }), SYNC]),
      { syncToFs: false },
    );
    const rowDescription = messages.find((m): m is RowDescriptionMessage => m.name === 'rowDescription');
    const prepared: Prepared = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      rowDescription,
    };
    this.statements.set(sql, prepared);
    return prepared;
  }

  private async forget(sql: string): Promise<void> {
    const statement = this.statements.get(sql);
    if (!statement) return;
    this.statements.delete(sql);
    await this.db.execProtocolStream(concat([protocol.serialize.close({ type: 'S', name: statement.name }), SYNC]), {
      syncToFs: false,
    });
  }

  /** As `query()` does it: by the parameter's type, else `toString()`; null and undefined are NULL. */
  private serialize(statement: Prepared, params: readonly unknown[]): BindValue[] {
    return params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = this.db.serializers[statement.paramTypes[i]!];
      return serializer ? (serializer(param) as BindValue) : (param as { toString(): string }).toString();
    });
  }
}

const EXECUTE = protocol.serialize.execute({});
const SYNC = protocol.serialize.sync();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Rows as `query()` answers them: one object per row, each field parsed by its column's type. */
function rowsOf<Row>(
  statement: Prepared,
  textRows: readonly TextRow[],
  parsers: Record<number | string, types.Parser>,
): Row[] {
  const fields = statement.rowDescription?.fields;
  if (!fields) return [];
  const rows: Row[] = [];
  for (const values of textRows) {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      row[fields[i]!.name] = types.parseType(values[i] ?? null, fields[i]!.dataTypeID, parsers);
    }
    rows.push(row as Row);
  }
  return rows;
}
