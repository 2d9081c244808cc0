// Pages the embedded store reads from outside PGlite's buffer pool per deposit, as the store grows:
// one app on a file-backed PGlite (as `npm start`), loaded in rounds of one deposit form; after each
// round it prints the round's rate and, from pg_statio, the pages read (missed the pool) and hit
// per deposit, and the indexes and tables that missed most. A deposit rate that falls from round
// to round while the floor's does not is this: the store's indexes outgrowing the buffer pool.
//   node bench/buffer-misses.mjs            (after npm run build)
//   MISS_SCENARIO=infrastructureDeposit MISS_ROUNDS=6 MISS_SECONDS=10 node bench/buffer-misses.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import * as allInOne from '../apps/all-in-one/dist/index.js';
import { SQL_DATABASE } from '../libs/event-store/dist/index.js';
import { SCENARIOS, runLoad } from './load.mjs';
import { BOOTSTRAP, appConfig } from './app-config.mjs';

const SCENARIO = process.env.MISS_SCENARIO || 'h2hDeposit';
const N_ROUNDS = Number(process.env.MISS_ROUNDS || 6);
const SECONDS = Number(process.env.MISS_SECONDS || 10);
const TOP = 5;

const scenario = SCENARIOS[SCENARIO];
if (!scenario) throw new Error(`MISS_SCENARIO: one of ${Object.keys(SCENARIOS).join(', ')}`);
const dataDir = mkdtempSync(join(os.tmpdir(), 'buffer-misses-'));
const running = await allInOne.createApp(appConfig(allInOne, { dataDir, secretKey: randomBytes(32) }), {});
await running.provision(allInOne.parseBootstrap(BOOTSTRAP, 'bench'));
await running.app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${running.app.getHttpServer().address().port}`;
const db = running.app.get(SQL_DATABASE);

/** Pages read (from the file system) and hit (in the pool), per relation, since the store opened. */
async function pageCounts() {
  const { rows } = await db.query(`
    select relname as name, coalesce(heap_blks_read, 0)::int as read, coalesce(heap_blks_hit, 0)::int as hit
      from pg_statio_user_tables
    union all
    select indexrelname, coalesce(idx_blks_read, 0)::int, coalesce(idx_blks_hit, 0)::int
      from pg_statio_user_indexes`);
  return new Map(rows.map((r) => [r.name, { read: r.read, hit: r.hit }]));
}

const setting = (await db.query(`select current_setting('shared_buffers') as v`)).rows[0].v;
console.log(
  `${SCENARIO} on file-backed PGlite (shared_buffers ${setting}), ${N_ROUNDS} rounds of ${SECONDS} s, 32 connections`,
);
await runLoad(url, scenario, 2, 'misses-warm-up', {});
let deposits = 0;
for (let round = 1; round <= N_ROUNDS; round++) {
  const before = await pageCounts();
  const result = await runLoad(url, scenario, SECONDS, 'misses', {});
  const after = await pageCounts();
  const made = result['2xx'];
  deposits += made;
  const deltas = [...after].map(([name, a]) => {
    const b = before.get(name) ?? { read: 0, hit: 0 };
    return { name, read: a.read - b.read, hit: a.hit - b.hit };
  });
  const read = deltas.reduce((sum, d) => sum + d.read, 0);
  const hit = deltas.reduce((sum, d) => sum + d.hit, 0);
  const top = deltas
    .filter((d) => d.read > 0)
    .sort((x, y) => y.read - x.read)
    .slice(0, TOP)
    .map((d) => `${d.name} ${(d.read / made).toFixed(2)}`);
  console.log(
    `round ${round}: ${Math.round(made / result.duration)} req/s, p99 ${(result.latencyMicros.p99 / 1000).toFixed(1)} ms, store ${deposits} deposits · ` +
      `pages per deposit: read ${(read / made).toFixed(2)}, hit ${(hit / made).toFixed(1)} · most read: ${top.join(', ') || '-'}`,
  );
}
await running.close();
rmSync(dataDir, { recursive: true, force: true });
