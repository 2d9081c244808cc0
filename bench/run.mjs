// Benchmark (not a test): `npm run bench` builds, then runs this once on this machine and prints
//   1. event-store appends/s on PGlite and on a PostgreSQL server,
//   2. H2H deposit creations/s over HTTP (32 connections, p50/p99) against the real app,
//   3. the raw floor (bare Fastify + one INSERT per request) on the same engine, and ours/floor,
// then a summary table; the same figures go to bench/out/latest.json.
// Env: TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
//      BENCH_ES_N_PG / BENCH_ES_N_PGLITE (fixed append counts instead of the ~7 s calibration).
import os from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout } from 'node:timers';
import pg from 'pg';
import { openPglite, openPostgres, PostgresEventStore } from '../libs/event-store/dist/index.js';
import * as allInOne from '../apps/all-in-one/dist/index.js';

const { createApp, parseBootstrap } = allInOne;
import { LOAD, measure, round } from './load.mjs';
import { startFloor } from './floor.mjs';
import { measureAppends } from './event-store-phase.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('./out/', import.meta.url));
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const CONCURRENCY = 32;
const BODY_LIMIT = 262_144;
const HARD_LIMIT_MS = 240_000;
// The per-provider limiter stays on (its cost is part of the request path) but at the highest
// value the config accepts, so it never trips: all bench traffic uses one API key.
const RATE_LIMIT_PER_MINUTE = 1_000_000;

const BOOTSTRAP = {
  infrastructures: [
    {
      name: 'Bench H2H',
      slug: 'bench',
      apiForm: 'h2h',
      callbackFormat: 'h2h',
      callback_deposit: 'http://127.0.0.1:9/cb/dep',
      callback_withdrawal: 'http://127.0.0.1:9/cb/wd',
    },
  ],
  merchants: [
    {
      name: 'Bench',
      minAmount: 1,
      maxAmount: 500000,
      depositCommissionPercent: 1.5,
      providers: [{ name: 'bench-h2h', infrastructure: 'bench', apiKey: 'ak_bench_1', apiSecret: 'sk_bench_1' }],
    },
  ],
  bankAccounts: [
    {
      bank: 'Ziraat Bankası',
      iban: 'TR330006100519786457841326',
      holderName: 'Bench Ltd',
      fast: true,
      minAmount: 1,
      maxAmount: 500000,
      dailyLimit: 100000000000,
    },
  ],
};

// ---------------------------------------------------------------- bookkeeping
const started = Date.now();
const tmpRoot = mkdtempSync(join(os.tmpdir(), 'transfergate-bench-'));
const suffix = randomBytes(4).toString('hex');
const problems = []; // loud: anything that makes the figures suspect
const cleanups = []; // LIFO, run even when a phase throws

const watchdog = setTimeout(() => {
  console.error(`\n!! bench exceeded ${HARD_LIMIT_MS / 1000} s: aborting`);
  process.exit(3);
}, HARD_LIMIT_MS);
watchdog.unref();

const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
const log = (message) => console.log(`[${elapsed().padStart(6)}] ${message}`);

async function withCleanup(label, close, work) {
  const entry = { label, close };
  cleanups.push(entry);
  try {
    return await work();
  } finally {
    cleanups.splice(cleanups.indexOf(entry), 1);
    const t = Date.now();
    await close();
    if (Date.now() - t > 2_000) log(`  (${label} took ${((Date.now() - t) / 1000).toFixed(1)} s to close)`);
  }
}

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const dropSchema = (schema) => adminQuery(`drop schema if exists ${schema} cascade`);

function readVersion(pkg) {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

// ---------------------------------------------------------------- phases
async function eventStorePglite() {
  const db = await openPglite(join(tmpRoot, 'es-pglite'));
  return withCleanup(
    'event store PGlite',
    () => db.close(),
    async () => {
      const store = await PostgresEventStore.create(db);
      const fixedN = process.env.BENCH_ES_N_PGLITE ? Number(process.env.BENCH_ES_N_PGLITE) : undefined;
      return measureAppends(store, { concurrency: CONCURRENCY, fixedN });
    },
  );
}

async function eventStorePostgres() {
  const schema = `bench_${suffix}`;
  const poolSize = 20;
  const db = await openPostgres({ url: PG_URL, schema, poolSize });
  return withCleanup(
    `event store PostgreSQL (${schema})`,
    async () => {
      await db.close();
      await dropSchema(schema);
    },
    async () => {
      const store = await PostgresEventStore.create(db);
      const fixedN = process.env.BENCH_ES_N_PG ? Number(process.env.BENCH_ES_N_PG) : undefined;
      return { ...(await measureAppends(store, { concurrency: CONCURRENCY, fixedN })), poolSize, schema };
    },
  );
}

async function appPhase(engineLabel, postgresSchema) {
  const dataDir = join(tmpRoot, `app-${engineLabel}`);
  mkdirSync(dataDir, { recursive: true });
  const secretKey = randomBytes(32);
  const config = {
    // The app's own defaults for every field (so a field added to RuntimeConfig gets its real
    // default), then the bench's explicit values.
    ...(typeof allInOne.loadRuntimeConfig === 'function'
      ? allInOne.loadRuntimeConfig({
          DATA_DIR: dataDir,
          TRANSFERGATE_SECRET_KEY: secretKey.toString('base64'),
          LOG_LEVEL: 'error',
          RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
        })
      : {}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    ...(postgresSchema ? { databaseUrl: PG_URL } : {}),
    depositTtlMs: 1_800_000,
    secretKey,
    bodyLimitBytes: BODY_LIMIT,
    trustProxy: [],
    shutdownTimeoutMs: 10_000,
    logLevel: 'error',
    rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
  };
  const t0 = Date.now();
  const running = await createApp(config, postgresSchema ? { schema: postgresSchema } : {});
  return withCleanup(
    `app ${engineLabel}`,
    async () => {
      await running.close();
      if (postgresSchema) await dropSchema(postgresSchema);
    },
    async () => {
      await running.provision(parseBootstrap(BOOTSTRAP, 'bench'));
      await running.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = running.app.getHttpServer().address();
      log(
        `  app up on :${port} in ${((Date.now() - t0) / 1000).toFixed(1)} s; load ${LOAD.warmupSeconds}+${LOAD.durationSeconds} s`,
      );
      const result = await measure(`http://127.0.0.1:${port}`, `ours ${engineLabel}`);
      const { rows } = await running.db.query(
        "select count(*)::int as n from es_events where type = 'DepositRequested'",
      );
      result.depositsStored = rows[0].n;
      return result;
    },
  );
}

async function floorPhase(engineLabel, engine) {
  const floor = await startFloor(engine, { path: LOAD.path, bodyLimitBytes: BODY_LIMIT });
  return withCleanup(
    `floor ${engineLabel}`,
    async () => {
      await floor.close();
      if (engine.kind === 'postgres') await dropSchema(engine.schema);
    },
    async () => {
      const result = await measure(floor.url, `floor ${engineLabel}`);
      result.rowsStored = await floor.count();
      return result;
    },
  );
}

function check(label, result) {
  const bad = result.non2xx + result.errors + result.timeouts;
  const warmBad = result.warmup.non2xx + result.warmup.errors;
  if (bad > 0 || warmBad > 0) {
    problems.push(
      `${label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts in ${result.requests} requests` +
        ` (warm-up: ${result.warmup.non2xx} non-2xx, ${result.warmup.errors} errors); status codes ${JSON.stringify(result.statusCodes)}`,
    );
  }
  if (result.ok2xx === 0) problems.push(`${label}: no successful request at all`);
}

// ---------------------------------------------------------------- output
const fmt = (n) => (n === undefined || n === null || Number.isNaN(n) ? '-' : Math.round(n).toLocaleString('en-US'));
const ms = (n) => (n === undefined || n === null ? '-' : `${n} ms`);
const ratio = (a, b) => (b > 0 ? round(a / b, 2) : null);

function httpLine(label, ours, floor, r) {
  return (
    `H2H deposit creation (${LOAD.connections} conns)  ${label.padEnd(10)}  ` +
    `req/s ${fmt(ours.reqPerSec)}  p50 ${ms(ours.latencyMs.p50)}  p99 ${ms(ours.latencyMs.p99)}` +
    `${ours.non2xx + ours.errors > 0 ? `  [${ours.non2xx} non-2xx, ${ours.errors} errors!]` : ''}` +
    `  | floor req/s ${fmt(floor.reqPerSec)}  p50 ${ms(floor.latencyMs.p50)}  p99 ${ms(floor.latencyMs.p99)}` +
    `  | ours/floor req/s ${r.throughput}  p99 ${r.p99}`
  );
}

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  const line = (row) =>
    row.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  ');
  const sep = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(rows[0]), sep, ...rows.slice(1).map(line)].join('\n');
}

// ---------------------------------------------------------------- main
async function main() {
  const pgVersion = (await adminQuery('show server_version')).rows[0].server_version;
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    totalMemGiB: round(os.totalmem() / 2 ** 30, 1),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    postgresServer: pgVersion,
    pglite: readVersion('@electric-sql/pglite'),
    fastify: readVersion('fastify'),
    autocannon: readVersion('autocannon'),
    loadAvgAtStart: os.loadavg().map((v) => round(v, 2)),
  };
  const pgTarget = PG_URL.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  console.log('transfergate benchmark — one run, one machine');
  console.log(
    `machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.totalMemGiB} GiB, ${machine.platform}\n` +
      `node ${machine.node}; PostgreSQL ${machine.postgresServer} at ${pgTarget}; PGlite ${machine.pglite} (file-backed, ${tmpRoot}); ` +
      `fastify ${machine.fastify}; autocannon ${machine.autocannon}\n` +
      `load average at start (1/5/15 min): ${machine.loadAvgAtStart.join(' / ')}` +
      `${machine.loadAvgAtStart[0] > machine.cpus / 2 ? '  (machine not idle: figures will be noisy)' : ''}\n` +
      `HTTP load: ${LOAD.connections} connections, pipelining ${LOAD.pipelining}, ${LOAD.warmupSeconds} s warm-up + ${LOAD.durationSeconds} s measured, ` +
      `autocannon in 1 worker thread; server in the main thread of this process; ` +
      `app provider rate limit ${RATE_LIMIT_PER_MINUTE.toLocaleString('en-US')}/min (on, never reached)\n`,
  );

  const results = {
    machine,
    startedAt: new Date(started).toISOString(),
    load: { ...LOAD, rateLimitPerMinute: RATE_LIMIT_PER_MINUTE },
    eventStore: {},
    h2h: {},
  };

  log('1. event store appends (PGlite) ...');
  results.eventStore.pglite = await eventStorePglite();
  log('1. event store appends (PostgreSQL) ...');
  results.eventStore.postgres = await eventStorePostgres();
  const es = results.eventStore;
  for (const [label, r] of [
    ['PGlite', es.pglite],
    ['PostgreSQL', es.postgres],
  ]) {
    if (r.eventsStored !== r.n + r.appendsBefore)
      problems.push(`event store ${label}: stored ${r.eventsStored}, expected ${r.n + r.appendsBefore}`);
  }
  console.log(
    `\nevent store appends/s (${CONCURRENCY} in flight, 1 event per new stream, 'no_stream')  ` +
      `PGlite ${fmt(es.pglite.appendsPerSec)}  PostgreSQL ${fmt(es.postgres.appendsPerSec)}` +
      `   [N ${es.pglite.n} / ${es.postgres.n}; p50 ${es.pglite.latencyMs.p50} / ${es.postgres.latencyMs.p50} ms; p99 ${es.pglite.latencyMs.p99} / ${es.postgres.latencyMs.p99} ms]\n`,
  );

  for (const [key, label] of [
    ['pglite', 'PGlite'],
    ['postgres', 'PostgreSQL'],
  ]) {
    const appSchema = key === 'postgres' ? `bench_app_${suffix}` : undefined;
    log(`2. H2H deposits over HTTP, real app on ${label} ...`);
    const ours = await appPhase(key, appSchema);
    check(`H2H app ${label}`, ours);
    log(`3. floor: bare Fastify + one INSERT on ${label} ...`);
    const engine =
      key === 'pglite'
        ? { kind: 'pglite', dataDir: join(tmpRoot, 'floor-pglite') }
        : { kind: 'postgres', url: PG_URL, schema: `bench_floor_${suffix}` };
    const floor = await floorPhase(key, engine);
    check(`floor ${label}`, floor);
    const r = {
      throughput: ratio(ours.reqPerSec, floor.reqPerSec),
      p50: ratio(ours.latencyMs.p50, floor.latencyMs.p50),
      p99: ratio(ours.latencyMs.p99, floor.latencyMs.p99),
    };
    results.h2h[key] = { ours, floor, oursOverFloor: r };
    console.log(`\n${httpLine(label, ours, floor, r)}\n`);
  }

  results.finishedAt = new Date().toISOString();
  results.wallSeconds = round((Date.now() - started) / 1000, 1);
  results.machine.loadAvgAtEnd = os.loadavg().map((v) => round(v, 2));
  results.problems = problems;

  const h = results.h2h;
  console.log('summary');
  console.log(
    table([
      ['figure', 'PGlite', 'PostgreSQL'],
      ['event store appends/s', fmt(es.pglite.appendsPerSec), fmt(es.postgres.appendsPerSec)],
      ['event store append p99 (ms)', es.pglite.latencyMs.p99, es.postgres.latencyMs.p99],
      ['H2H deposits req/s (ours)', fmt(h.pglite.ours.reqPerSec), fmt(h.postgres.ours.reqPerSec)],
      [
        'H2H p50 / p99 ms (ours)',
        `${h.pglite.ours.latencyMs.p50} / ${h.pglite.ours.latencyMs.p99}`,
        `${h.postgres.ours.latencyMs.p50} / ${h.postgres.ours.latencyMs.p99}`,
      ],
      ['floor req/s', fmt(h.pglite.floor.reqPerSec), fmt(h.postgres.floor.reqPerSec)],
      [
        'floor p50 / p99 ms',
        `${h.pglite.floor.latencyMs.p50} / ${h.pglite.floor.latencyMs.p99}`,
        `${h.postgres.floor.latencyMs.p50} / ${h.postgres.floor.latencyMs.p99}`,
      ],
      ['ours/floor req/s', h.pglite.oursOverFloor.throughput, h.postgres.oursOverFloor.throughput],
      ['ours/floor p99', h.pglite.oursOverFloor.p99, h.postgres.oursOverFloor.p99],
      [
        'non-2xx + errors (ours / floor)',
        `${h.pglite.ours.non2xx + h.pglite.ours.errors} / ${h.pglite.floor.non2xx + h.pglite.floor.errors}`,
        `${h.postgres.ours.non2xx + h.postgres.ours.errors} / ${h.postgres.floor.non2xx + h.postgres.floor.errors}`,
      ],
    ]),
  );

  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `\nwrote bench/out/latest.json (wall time ${results.wallSeconds} s; load average at end ${results.machine.loadAvgAtEnd.join(' / ')})`,
  );
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error('\n!! bench failed:', error);
} finally {
  for (const entry of cleanups.reverse()) {
    await Promise.resolve(entry.close()).catch((error) => console.error(`!! cleanup of ${entry.label} failed:`, error));
  }
  // Belt and braces: a phase that failed before registering its cleanup must not leave a schema.
  for (const schema of [`bench_${suffix}`, `bench_app_${suffix}`, `bench_floor_${suffix}`]) {
    await dropSchema(schema).catch((error) => console.error(`!! could not drop schema ${schema}:`, error.message));
  }
  rmSync(tmpRoot, { recursive: true, force: true });
}

if (problems.length > 0) {
  const bar = '!'.repeat(78);
  console.error(`\n${bar}\n!! THIS RUN HAD ERRORS — the figures above are not clean:`);
  for (const p of problems) console.error(`!!  - ${p}`);
  console.error(bar);
}
process.exitCode = failed ? 1 : problems.length > 0 ? 2 : 0;

// Everything is closed; if some handle still keeps the loop alive, say which and leave anyway.
setTimeout(() => {
  const handles = process._getActiveHandles().map((h) => h?.constructor?.name ?? typeof h);
  console.error(`!! process did not exit by itself 5 s after the bench; lingering handles: ${handles.join(', ')}`);
  process.exit(process.exitCode ?? 0);
}, 5_000).unref();
