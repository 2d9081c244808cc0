// The raw floor: a bare Fastify server with one POST route that parses the same JSON body and does
// ONE insert per request, on the same database engine as the app phase it is compared with.
import Fastify from 'fastify';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';

const TABLE = 'create table if not exists floor_events (id bigserial primary key, body jsonb not null)';
const INSERT = 'insert into floor_events (body) values ($1::jsonb)';

async function floorDatabase(engine) {
  if (engine.kind === 'pglite') {
    const db = await PGlite.create({ dataDir: engine.dataDir });
    await db.exec(TABLE);
    return {
      insert: (json) => db.query(INSERT, [json]),
      count: async () => Number((await db.query('select count(*)::int as n from floor_events')).rows[0].n),
      close: () => db.close(),
    };
  }
  const admin = new pg.Client({ connectionString: engine.url });
  await admin.connect();
  try {
    await admin.query(`create schema if not exists ${engine.schema}`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: engine.url, max: 20, options: `-c search_path=${engine.schema}` });
  pool.on('error', () => undefined);
  await pool.query(TABLE);
  return {
    insert: (json) => pool.query(INSERT, [json]),
    count: async () => Number((await pool.query('select count(*)::int as n from floor_events')).rows[0].n),
    close: () => pool.end(),
  };
}

/** engine: {kind:'pglite', dataDir} | {kind:'postgres', url, schema}. Returns {url, count(), close()}. */
export async function startFloor(engine, { path, bodyLimitBytes }) {
  const db = await floorDatabase(engine);
  const app = Fastify({ logger: false, bodyLimit: bodyLimitBytes });
  app.post(path, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || typeof body.transaction_id !== 'string') {
      return reply.code(400).send({ status: false });
    }
    await db.insert(JSON.stringify(body));
    return reply.code(201).send({ status: true, code: 200, transaction_id: body.transaction_id });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => db.count(),
    async close() {
      await app.close();
      await db.close();
    },
  };
}
