// The raw floor: a bare Fastify server on the same database engine as the app phase it is compared
// with, with two routes:
// - POST <path> parses the same JSON body as the H2H deposit and does ONE insert per request;
// - POST /status/:id does ONE `select ... where id = $1` by primary key per request (the floor of
//   the status lookup; the ids come from rows the insert route stored).
import Fastify from 'fastify';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';

const TABLE = 'create table if not exists floor_events (id bigserial primary key, body jsonb not null)';
const INSERT = 'insert into floor_events (body) values ($1::jsonb)';
const SELECT = 'select id, body from floor_events where id = $1';
const COUNT = 'select count(*)::int as n from floor_events';
const IDS = 'select id from floor_events order by id limit $1';

async function floorDatabase(engine) {
  if (engine.kind === 'pglite') {
    const db = await PGlite.create({ dataDir: engine.dataDir });
    await db.exec(TABLE);
    return { query: (sql, params) => db.query(sql, params), close: () => db.close() };
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
  return { query: (sql, params) => pool.query(sql, params), close: () => pool.end() };
}

/**
 * engine: {kind:'pglite', dataDir} | {kind:'postgres', url, schema}.
 * Returns {url, count(), ids(limit), close()}.
 */
export async function startFloor(engine, { path, bodyLimitBytes }) {
  const db = await floorDatabase(engine);
  const app = Fastify({ logger: false, bodyLimit: bodyLimitBytes });
  app.post(path, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || typeof body.transaction_id !== 'string') {
      return reply.code(400).send({ status: false });
    }
    await db.query(INSERT, [JSON.stringify(body)]);
    return reply.code(201).send({ status: true, code: 200, transaction_id: body.transaction_id });
  });
  app.post('/status/:id', async (request, reply) => {
    const id = request.params.id;
    if (!/^[0-9]{1,18}$/.test(id)) return reply.code(400).send({ status: false });
    const { rows } = await db.query(SELECT, [id]);
    if (rows.length === 0) return reply.code(404).send({ status: false });
    const { body } = rows[0];
    return reply.code(201).send({
      status: true,
      id: Number(rows[0].id),
      transaction_id: body.transaction_id,
      amount: body.amount,
      fullname: body.fullname,
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    count: async () => Number((await db.query(COUNT)).rows[0].n),
    ids: async (limit) => (await db.query(IDS, [limit])).rows.map((row) => String(row.id)),
    async close() {
      await app.close();
      await db.close();
    },
  };
}
