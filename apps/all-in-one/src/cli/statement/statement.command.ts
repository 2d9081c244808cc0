import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DomainError, statementRange, statementToCsv } from '@transfergate/contracts';
import { DataDirLockedError, openDatabase, PostgresEventStore } from '@transfergate/event-store';
import { merchantIdFrom, readMerchantStatement } from '@transfergate/ledger';
import { statementAsText } from './statement.text.js';

export const STATEMENT_USAGE = `usage: transfergate statement --merchant <id|name> --from <ISO> --to <ISO> [--csv | --json]
  [--database-url postgres://…] [--schema <name>] [--data-dir <dir>]

Prints a merchant's account statement for [from, to) from the event store alone (no read model):
opening balance, every ledger entry, closing balance. --json prints what GET /panel/merchants/:id/statement
answers, --csv what …/statement.csv answers. The database is DATABASE_URL (+ DATABASE_SCHEMA), else the
embedded PGlite in DATA_DIR (default ./data); PGlite serves one process: stop the server first.`;

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const stdio: CliOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** `transfergate statement …`; answers the exit code (0 printed, 2 bad usage or input, 1 failure). */
export async function runStatementCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliOutput = stdio,
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        merchant: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        csv: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'database-url': { type: 'string' },
        schema: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`${(error as Error).message}\n${STATEMENT_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    io.out(`${STATEMENT_USAGE}\n`);
    return 0;
  }
  if (!values.merchant || !values.from || !values.to || (values.csv && values.json)) {
    io.err(`${STATEMENT_USAGE}\n`);
    return 2;
  }
  const databaseUrl = values['database-url'] ?? env.DATABASE_URL;
  const schema = values.schema ?? env.DATABASE_SCHEMA;
  const pgdata = join(resolve(values['data-dir'] ?? env.DATA_DIR ?? './data'), 'pgdata');
  if (!databaseUrl && !existsSync(pgdata)) {
    io.err(`no database: DATABASE_URL is not set and there is no PGlite data in ${pgdata}\n`);
    return 2;
  }

  let db;
  try {
    const range = statementRange(values.from, values.to);
    db = await openDatabase(
      databaseUrl ? { databaseUrl, ...(schema ? { schema } : {}), poolSize: 4 } : { dataDir: pgdata },
    );
    const store = await PostgresEventStore.create(db);
    const statement = await readMerchantStatement(store, merchantIdFrom(values.merchant), range);
    if (values.csv) io.out(statementToCsv(statement));
    else if (values.json) io.out(`${JSON.stringify(statement)}\n`);
    else io.out(statementAsText(statement));
    return 0;
  } catch (error) {
    // A name is turned into an id before the read: name what the operator typed, not the derived id.
    if (error instanceof DomainError && error.errorCode === 'not_found') {
      io.err(`no merchant with id or name "${values.merchant}"\n`);
      return 2;
    }
    if (error instanceof DomainError || error instanceof DataDirLockedError) {
      io.err(`${error.message}\n`);
      return 2;
    }
    io.err(`statement failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await db?.close();
  }
}
