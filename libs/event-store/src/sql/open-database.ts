import { openPglite } from './pglite-database.js';
import { openPostgres } from './postgres-database.js';
import type { SqlDatabase } from './sql-database.js';

export interface DatabaseConfig {
  /** postgres://… uses a PostgreSQL server; absent means embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; absent with no URL means in memory. */
  dataDir?: string;
  schema?: string;
  poolSize?: number;
}

export async function openDatabase(config: DatabaseConfig): Promise<SqlDatabase> {
  if (config.databaseUrl) {
    return openPostgres({ url: config.databaseUrl, schema: config.schema, poolSize: config.poolSize });
  }
  return openPglite(config.dataDir);
}
