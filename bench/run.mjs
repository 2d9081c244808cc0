// Benchmark (not a test): `npm run bench` builds, then runs this once on this machine and prints
//   1. event-store appends/s on PGlite and on a PostgreSQL server,
//   2. over HTTP against the real app (32 connections, req/s, p50/p99), on each engine:
//      deposit creation in each API form (H2H POST /deposit/bank, Merchant POST /deposit,
//      Infrastructure POST /deposits/deposit-request), then POST /status/{id} lookups cycling over
//      transactions created by the H2H phase,
//   3. the raw floors on the same engine (bare Fastify + one INSERT per request for the creations,
//      + one SELECT by primary key per request for the lookups), and ours/floor; the floor INSERT
//      and the three creation forms (their order turned by one each round) alternate for
//      BENCH_ROUNDS rounds (default 3) and the report
//      gives each ratio's median and range (single runs on a shared machine swing by 10-20%),
//   3b. distributed: the same H2H deposit phase against a gateway-api process whose commands go over
//      NATS to a ledger process (PostgreSQL), beside the embedded PostgreSQL figure as a ratio,
//   3c. the same over Kafka when KAFKA_BROKERS is set (npm run kafka:local), also as a ratio,
//   4. callback delivery on each engine (a fresh app instance): callbacks delivered/s to a local
//      receiver answering 200, then the same with the receiver failing 30% of its requests
//      (attempts counted, all must be delivered in the end),
// then a summary table; the same figures go to bench/out/latest.json.
// Env: TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
//      BENCH_ES_N_PG / BENCH_ES_N_PGLITE (fixed append counts instead of the ~7 s calibration),
//      BENCH_CB_N_PG / BENCH_CB_N_PGLITE (callbacks per callback phase, default 2000 each),
//      BENCH_REPLAY_EVENTS (events of the replay phase, default 1,000,000; 0 skips it),
//      BENCH_GROWTH_EVENTS (events of the growth phase's filled store, default 5,000,000),
//      BENCH_PHASES (comma list of start, es, app, dist, callbacks, replay, growth; default all: e.g.
//      BENCH_PHASES=app runs only the deposit/status phases and their floors),
//      BENCH_ENGINES (comma list of pglite, postgres; default both),
//      BENCH_ROUNDS (rounds of floor INSERT and deposit phases per engine, 1..9, default 3),
//      BENCH_JIT_WARMUP_SECONDS (unmeasured load on the floor and on each deposit form before an
//      engine's opening round, default 10; 0 skips it).
// 5. replay (bench/replay-phase.mjs): events/s of `transfergate replay` over generated ledger events on
//    PostgreSQL beside the raw read of the same rows, same run, in a process started with the replay's
//    Node options as the CLI starts it.
// 0. start (bench/start-phase.mjs, also runnable alone): the embedded default's cold start (an empty
//    DATA_DIR) and warm start as `npm start` runs them, wall time to the first answer and RSS after
//    15 s idle, BENCH_START_RUNS times (default 3), before any other phase loads the machine.
// 7. growth (bench/growth-phase.mjs, also runnable alone): H2H deposits and /status against their
//    floors on an empty store and on one pre-filled by COPY with BENCH_GROWTH_EVENTS events (default
//    5,000,000), filled/empty of each ratio, the replay's rate at N against N/5, and the size per million
//    events; in a process started with the replay's Node options.
// 6. reconciliation (bench/reconciliation-phase.mjs, also runnable alone): statement lines imported and
//    matched per second (BENCH_RECON_LINES, default 100,000, against BENCH_RECON_DEPOSITS, default
//    50,000 open deposits; BENCH_RECON=0 skips the phase) and the automatic match precision/recall.
import os from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout } from 'node:timers';
import pg from 'pg';
import { openPglite, openPostgres, PostgresEventStore } from '../libs/event-store/dist/index.js';
import * as allInOne from '../apps/all-in-one/dist/index.js';

const { createApp, parseBootstrap } = allInOne;
import { LOAD, SCENARIOS, measure, round, runLoad } from './load.mjs';
import { startFloor } from './floor.mjs';
import { BODY_LIMIT, BOOTSTRAP, RATE_LIMIT_PER_MINUTE, appConfig } from './app-config.mjs';
import { measureAppends } from './event-store-phase.mjs';
import { measureReplayInOwnProcess } from './replay-phase.mjs';
import { describeGrowth, measureGrowthInOwnProcess } from './growth-phase.mjs';
import { measureReconciliation } from './reconciliation-phase.mjs';
import { describeStarts, measureStarts } from './start-phase.mjs';
import { measureDistributed } from './distributed-phase.mjs';
import { describeHostSpeed, measureHostSpeed } from './host-speed.mjs';
import {
  CALLBACK_FAIL_SHARE,
  CALLBACK_LANES,
  CALLBACK_LEASE_MS,
  CALLBACK_REQUEST_TIMEOUT_MS,
  CALLBACK_RETRY_SCHEDULE_MS,
  callbackBootstrap,
  measureCallbacks,
  startReceiver,
} from './callback-phase.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('./out/', import.meta.url));
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const CONCURRENCY = 32;
const ALL_PHASES = ['start', 'es', 'app', 'dist', 'callbacks', 'replay', 'growth'];
const PHASES = new Set((process.env.BENCH_PHASES || ALL_PHASES.join(',')).split(',').map((p) => p.trim()));
for (const phase of PHASES) if (!ALL_PHASES.includes(phase)) throw new Error(`BENCH_PHASES: unknown phase ${phase}`);
const ENGINES = [
  ['pglite', 'PGlite'],
  ['postgres', 'PostgreSQL'],
].filter(([key]) => (process.env.BENCH_ENGINES || 'pglite,postgres').split(',').includes(key));
const REPLAY_PHASE_LIMIT_MS =
  PHASES.has('replay') && Number(process.env.BENCH_REPLAY_EVENTS ?? 1_000_000) > 0 ? 3_600_000 : 0;
/** The growth phase: its fill, two replays and the filled store's first start grow with its events. */
const GROWTH_PHASE_LIMIT_MS = PHASES.has('growth')
  ? 600_000 + Number(process.env.BENCH_GROWTH_EVENTS ?? 5_000_000) // about 1 ms per event on this machine, and room
  : 0;
/** Rounds of (floor INSERT, then the three forms in depositOrder) per engine; the report gives their medians. */
const DEPOSIT_ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
/** Unmeasured load per form (and on the floor) before an engine's opening round. */
const JIT_WARMUP_SECONDS = Number(process.env.BENCH_JIT_WARMUP_SECONDS ?? 10);
if (!Number.isInteger(DEPOSIT_ROUNDS) || DEPOSIT_ROUNDS < 1 || DEPOSIT_ROUNDS > 9)
  throw new RangeError('BENCH_ROUNDS must be an integer 1..9');
if (!Number.isInteger(JIT_WARMUP_SECONDS) || JIT_WARMUP_SECONDS < 0 || JIT_WARMUP_SECONDS > 60)
  throw new RangeError('BENCH_JIT_WARMUP_SECONDS must be an integer 0..60');
// A round is four 12 s phases per engine, about 100 s for both.
const START_RUNS = Number(process.env.BENCH_START_RUNS || 3);
if (!Number.isInteger(START_RUNS) || START_RUNS < 1 || START_RUNS > 9)
  throw new RangeError('BENCH_START_RUNS must be an integer 1..9');
const HARD_LIMIT_MS =
  720_000 +
  160_000 * START_RUNS +
  120_000 * DEPOSIT_ROUNDS +
  8_000 * JIT_WARMUP_SECONDS +
  REPLAY_PHASE_LIMIT_MS +
  GROWTH_PHASE_LIMIT_MS; // the callback phases may take up to 4 x CALLBACK_PHASE_LIMIT_MS
const CALLBACK_PHASE_LIMIT_MS = 120_000;
// 2,000 each: with 500 on PGlite the timed window was a quarter of a second, so one pause or the
// dispatcher's first claim decided the figure (1,904/s at 500 against 3,199/s at 2,000, same host).
const CALLBACK_N = {
  pglite: Number(process.env.BENCH_CB_N_PGLITE || 2000),
  postgres: Number(process.env.BENCH_CB_N_PG || 2000),
};
const STATUS_IDS = 300; // identifiers the status phases cycle over
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

async function replayPostgres() {
  const schema = `bench_replay_${suffix}`;
  return withCleanup(
    `replay PostgreSQL (${schema})`,
    () => dropSchema(schema),
    () => measureReplayInOwnProcess({ url: PG_URL, schema, log }),
  );
}

// The creation forms, after each round's floor INSERT. Their order turns by one each round
// (depositOrder), so that no form always runs furthest from its floor.
const DEPOSIT_SCENARIOS = ['h2hDeposit', 'merchantDeposit', 'infrastructureDeposit'];

/**
 * Round r's order of the forms: DEPOSIT_SCENARIOS turned by r. The host's speed drifts within a
 * round's minute; in a fixed order the last form always meets the most drift, in either direction.
 * The opening round keeps H2H first: it collects the status phase's ids.
 */
function depositOrder(r) {
  return DEPOSIT_SCENARIOS.map((_, i) => DEPOSIT_SCENARIOS[(i + r) % DEPOSIT_SCENARIOS.length]);
}
const FORM_OF = { h2hDeposit: 'h2h', merchantDeposit: 'merchant', infrastructureDeposit: 'infrastructure' };
const require = createRequire(import.meta.url);

/** Up to `n` distinct non-empty lines of a file written by the load worker (none if absent). */
function readIds(path, n) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return [...new Set(text.split('\n').filter((line) => line.length > 0))].slice(0, n);
}

/** If the H2H phase yielded fewer than STATUS_IDS ids, create the rest with plain fetch. */
async function topUpIds(baseUrl, ids) {
  const setupRequest = require('./h2h-request.cjs');
  const failures = [];
  while (ids.length < STATUS_IDS && failures.length < 5) {
    const context = {};
    const { body } = setupRequest({ method: 'POST', path: SCENARIOS.h2hDeposit.path }, context);
    const response = await globalThis.fetch(baseUrl + SCENARIOS.h2hDeposit.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await response.text();
    if (response.ok) ids.push(context.transactionId);
    else failures.push(`HTTP ${response.status} for ${body}: ${text.slice(0, 500)}`);
  }
  return failures;
}

/**
 * The HTTP phases of one engine: the real app and the floor server run side by side (each idle
 * while the other is loaded), and the floor INSERT and the three creation forms alternate for
 * DEPOSIT_ROUNDS rounds, so that each round's ratio compares phases a minute apart at most: on a
 * shared 2-core machine single runs of the same build swing by 10-20%, more than most changes.
 * Then the status lookups, once, beside the floor's SELECT.
 */
async function httpPhase(engineLabel, postgresSchema, floorEngine) {
  const dataDir = join(tmpRoot, `app-${engineLabel}`);
  mkdirSync(dataDir, { recursive: true });
  const secretKey = randomBytes(32);
  const config = appConfig(allInOne, { dataDir, secretKey, databaseUrl: postgresSchema ? PG_URL : undefined });
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
      const url = `http://127.0.0.1:${port}`;
      log(`  app up on :${port} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      const floor = await startFloor(floorEngine, { path: SCENARIOS.floorInsert.path, bodyLimitBytes: BODY_LIMIT });
      return withCleanup(
        `floor ${engineLabel}`,
        async () => {
          await floor.close();
          if (floorEngine.kind === 'postgres') await dropSchema(floorEngine.schema);
        },
        async () => {
          const idsFile = join(tmpRoot, `status-ids-${engineLabel}.txt`);
          if (JIT_WARMUP_SECONDS > 0) {
            // V8 keeps compiling the app for 10-15 s of load; the floor's small path is compiled within
            // its own 2 s warm-up. Unmeasured, so that every round, the opening one too, compares a warm
            // app with a warm floor.
            log(
              `  ${engineLabel}: ${JIT_WARMUP_SECONDS} s of unmeasured load on the floor and each form (JIT warm-up) ...`,
            );
            await runLoad(floor.url, SCENARIOS.floorInsert, JIT_WARMUP_SECONDS, `floor ${engineLabel} JIT warm-up`, {});
            for (const name of DEPOSIT_SCENARIOS)
              await runLoad(url, SCENARIOS[name], JIT_WARMUP_SECONDS, `ours ${engineLabel} ${name} JIT warm-up`, {});
          }
          const measured = [];
          for (let r = 0; r < DEPOSIT_ROUNDS; r++) {
            const tag = `round ${r + 1}/${DEPOSIT_ROUNDS}`;
            log(`  floor ${engineLabel} ${tag}: ${SCENARIOS.floorInsert.label} ...`);
            const one = {
              floorInsert: await measure(floor.url, SCENARIOS.floorInsert, `floor ${engineLabel} insert ${tag}`),
            };
            for (const name of depositOrder(r)) {
              const scenario = SCENARIOS[name];
              // The status phase cycles over transaction_ids the first H2H phase got a 2xx for.
              const env =
                name === 'h2hDeposit' && r === 0
                  ? { BENCH_COLLECT_IDS_FILE: idsFile, BENCH_COLLECT_IDS_MAX: String(STATUS_IDS) }
                  : {};
              log(`  ours ${engineLabel} ${tag}: ${scenario.label} (${scenario.method} ${scenario.path}) ...`);
              one[name] = await measure(url, scenario, `ours ${engineLabel} ${name} ${tag}`, env);
            }
            measured.push(one);
          }

          const ids = readIds(idsFile, STATUS_IDS);
          const statusIds = { collected: ids.length };
          const failures = await topUpIds(url, ids);
          statusIds.toppedUp = ids.length - statusIds.collected;
          for (const failure of failures) problems.push(`status ids top-up on ${engineLabel}: ${failure}`);
          writeFileSync(idsFile, `${ids.join('\n')}\n`);
          Object.assign(statusIds, { used: ids.length, sample: ids.slice(0, 2) });
          log(
            `  ours ${engineLabel}: ${SCENARIOS.status.label} (${SCENARIOS.status.method} ${SCENARIOS.status.route}) ...`,
          );
          const status = await measure(url, SCENARIOS.status, `ours ${engineLabel} status`, {
            BENCH_STATUS_IDS_FILE: idsFile,
          });
          status.ids = statusIds;
          const floorRows = await floor.count();
          const floorIds = await floor.ids(STATUS_IDS);
          const floorIdsFile = join(tmpRoot, `floor-ids-${engineLabel}.txt`);
          writeFileSync(floorIdsFile, `${floorIds.join('\n')}\n`);
          log(`  floor ${engineLabel}: ${SCENARIOS.floorSelect.label} (ids cycling over ${floorIds.length} rows) ...`);
          const floorSelect = await measure(floor.url, SCENARIOS.floorSelect, `floor ${engineLabel} select`, {
            BENCH_STATUS_IDS_FILE: floorIdsFile,
          });
          floorSelect.ids = { used: floorIds.length, tableRows: floorRows };

          const { rows } = await running.db.query(
            "select data->>'form' as form, count(*)::int as n from es_events where type = 'DepositRequested' group by 1",
          );
          const byForm = Object.fromEntries(rows.map((row) => [row.form, row.n]));
          const stored = {};
          for (const [name, form] of Object.entries(FORM_OF)) {
            stored[name] = byForm[form] ?? 0;
            // A 2xx the client saw must be a stored deposit (more may be stored: requests still in
            // flight when a run stops, and the status top-up).
            const answered = measured.reduce((n, one) => n + one[name].ok2xx + one[name].warmup.ok2xx, 0);
            if (stored[name] < answered)
              problems.push(`${engineLabel} ${name}: ${answered} 2xx answers but ${stored[name]} stored`);
          }
          return { rounds: measured, status, floorSelect, stored };
        },
      );
    },
  );
}

/** `min-max` of one figure over a list of results. */
function range(results, key) {
  const values = results.map((x) => x[key]);
  return `${Math.min(...values)}-${Math.max(...values)}`;
}

/** The middle value (the lower middle of an even count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

// A fresh app per engine (its own data dir / schema), so the callbacks of earlier phases' deposits
// cannot interfere; retries are fast (CALLBACK_RETRY_SCHEDULE_MS) so the figure is the dispatcher's
// throughput, not the schedule's waiting.
async function callbackPhase(engineLabel, postgresSchema) {
  const receiver = await startReceiver();
  return withCleanup(
    `callback receiver ${engineLabel}`,
    () => receiver.close(),
    async () => {
      const dataDir = join(tmpRoot, `cb-${engineLabel}`);
      mkdirSync(dataDir, { recursive: true });
      const secretKey = randomBytes(32);
      const config = {
        ...appConfig(allInOne, { dataDir, secretKey, databaseUrl: postgresSchema ? PG_URL : undefined }),
        callbacks: {
          retryScheduleMs: CALLBACK_RETRY_SCHEDULE_MS,
          requestTimeoutMs: CALLBACK_REQUEST_TIMEOUT_MS,
          leaseMs: CALLBACK_LEASE_MS,
        },
      };
      const t0 = Date.now();
      const running = await createApp(config, postgresSchema ? { schema: postgresSchema } : {});
      return withCleanup(
        `callback app ${engineLabel}`,
        async () => {
          await running.close();
          if (postgresSchema) await dropSchema(postgresSchema);
        },
        async () => {
          await running.provision(parseBootstrap(callbackBootstrap(receiver.url), 'bench-callbacks'));
          log(`  callback app up in ${((Date.now() - t0) / 1000).toFixed(1)} s; receiver ${receiver.url}`);
          const out = {};
          for (const lane of Object.keys(CALLBACK_LANES)) {
            const n = CALLBACK_N[engineLabel];
            log(`  callbacks ${engineLabel}: ${CALLBACK_LANES[lane].label}, N = ${n} ...`);
            const r = await measureCallbacks(running, receiver, lane, {
              n,
              timeoutMs: CALLBACK_PHASE_LIMIT_MS,
              tag: suffix,
            });
            out[lane] = r;
            log(
              `  callbacks ${engineLabel} ${lane}: ${fmt(r.callbacksPerSec)} delivered/s  (${r.delivered}/${r.n} delivered ` +
                `= ${round(r.deliveredShare * 100, 1)}% in ${r.seconds} s from the receiver's gate opening; approvals (gate closed) took ${r.approveSeconds} s ` +
                `(${fmt(r.approvalsPerSec)}/s, ${r.deliveredWhenApproved} delivered by then); end to end from the first approval ${fmt(r.endToEndPerSec)}/s; ` +
                `${r.attempts} attempts = ${round(r.attemptsPerCallback, 3)}/callback, ${r.answered500} answered 500; ` +
                `deposits created in ${r.createSeconds} s, not timed)`,
            );
            const label = `callbacks ${engineLabel} (${CALLBACK_LANES[lane].label})`;
            if (r.timedOut) {
              const msg = `${label}: ABORTED after ${CALLBACK_PHASE_LIMIT_MS / 1000} s with ${r.delivered}/${r.n} delivered`;
              console.error(`\n!! ${msg}\n`);
              problems.push(msg);
            }
            if (r.delivered !== r.n) problems.push(`${label}: ${r.delivered}/${r.n} delivered`);
            if (r.duplicateDeliveries > 0) problems.push(`${label}: ${r.duplicateDeliveries} duplicate 200 deliveries`);
            if (r.requestsWithoutWebhookId > 0)
              problems.push(`${label}: ${r.requestsWithoutWebhookId} requests without webhook-id`);
            if (!CALLBACK_LANES[lane].failing && r.attempts !== r.n)
              problems.push(`${label}: ${r.attempts} attempts for ${r.n} callbacks with a receiver that never fails`);
          }
          return out;
        },
      );
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
  const expected = String(result.scenario.expect);
  const other = [result.statusCodes, result.warmup.statusCodes].flatMap((codes) =>
    Object.keys(codes).filter((code) => code !== expected && code.startsWith('2')),
  );
  if (other.length > 0)
    problems.push(
      `${label}: 2xx other than the expected ${expected}: measured ${JSON.stringify(result.statusCodes)}, warm-up ${JSON.stringify(result.warmup.statusCodes)}`,
    );
  if (result.ok2xx === 0) problems.push(`${label}: no successful request at all`);
}

// ---------------------------------------------------------------- output
const fmt = (n) => (n === undefined || n === null || Number.isNaN(n) ? '-' : Math.round(n).toLocaleString('en-US'));
const ms = (n) => (n === undefined || n === null ? '-' : `${n.toFixed(1)} ms`);
/** p50 / p99 of a latencyMs object, to a tenth of a millisecond. */
const p50p99 = (l) => `${l.p50?.toFixed(1) ?? '-'} / ${l.p99?.toFixed(1) ?? '-'}`;
const ratio = (a, b) => (b > 0 ? round(a / b, 2) : null);
const bad = (r) => r.non2xx + r.errors;

// Each figure of the report: the app scenario, its floor and the key in latest.json.
const FIGURES = [
  { key: 'h2h', scenario: 'h2hDeposit', floor: 'insert', short: 'H2H deposits' },
  { key: 'merchant', scenario: 'merchantDeposit', floor: 'insert', short: 'Merchant deposits' },
  { key: 'infrastructure', scenario: 'infrastructureDeposit', floor: 'insert', short: 'Infra deposits' },
  { key: 'status', scenario: 'status', floor: 'select', short: 'Status lookups' },
];
const FLOOR_NAME = { insert: 'floor INSERT', select: 'floor SELECT by PK' };

/** Ours and the floor as ratios (ours/floor) of req/s, p50 and p99. */
function ratios(ours, floor) {
  return {
    throughput: ratio(ours.reqPerSec, floor.reqPerSec),
    p50: ratio(ours.latencyMs.p50, floor.latencyMs.p50),
    p99: ratio(ours.latencyMs.p99, floor.latencyMs.p99),
  };
}

function httpLine(figure, ours, floor, r, tag = '') {
  const label = `${SCENARIOS[figure.scenario].label} (${LOAD.connections} conns)${tag ? `, ${tag}` : ''}`;
  const range = r.throughputRange ? `  (rounds ${r.throughputRange.join('-')} / ${r.p99Range.join('-')})` : '';
  return (
    `  ${label.padEnd(46)}  ` +
    `req/s ${fmt(ours.reqPerSec).padStart(5)}  p50 ${ms(ours.latencyMs.p50).padStart(6)}  p99 ${ms(ours.latencyMs.p99).padStart(6)}` +
    `${bad(ours) > 0 ? `  [${ours.non2xx} non-2xx, ${ours.errors} errors!]` : ''}` +
    `  | ${FLOOR_NAME[figure.floor].padEnd(18)} req/s ${fmt(floor.reqPerSec).padStart(5)}  p50 ${ms(floor.latencyMs.p50).padStart(6)}  p99 ${ms(floor.latencyMs.p99).padStart(6)}` +
    `${bad(floor) > 0 ? `  [${floor.non2xx} non-2xx, ${floor.errors} errors!]` : ''}` +
    `  | ours/floor req/s ${r.throughput}  p99 ${r.p99}${range}`
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
      `HTTP load: ${LOAD.connections} connections, pipelining ${LOAD.pipelining}, ${LOAD.warmupSeconds} s warm-up + ${LOAD.durationSeconds} s measured ` +
      `per phase (every app phase and every floor phase alike), autocannon in a child process, every 2xx answer timed to the microsecond; server in the main thread of this process; ` +
      `app provider rate limit ${RATE_LIMIT_PER_MINUTE.toLocaleString('en-US')}/min (on, never reached)\n` +
      `phases per engine, on one app instance and one floor server side by side: ${JIT_WARMUP_SECONDS} s of unmeasured load on the floor ` +
      `and on each form first (BENCH_JIT_WARMUP_SECONDS, the app's JIT warm-up), then ${DEPOSIT_ROUNDS} rounds (BENCH_ROUNDS) of ` +
      `the floor's one INSERT per request (H2H bodies), H2H POST /deposit/bank, Merchant POST /deposit, ` +
      `Infrastructure POST /deposits/deposit-request (each request a new deposit; the forms' order turned by one each round), each round's ratios against its own floor, ` +
      `reported as medians; then POST /status/{id} cycling over ${STATUS_IDS} transaction_ids of the first H2H phase, ` +
      `and the floor's one SELECT by primary key per request cycling over ${STATUS_IDS} of its rows (the floor of /status)\n`,
  );

  const results = {
    machine,
    startedAt: new Date(started).toISOString(),
    load: { ...LOAD, rateLimitPerMinute: RATE_LIMIT_PER_MINUTE },
    eventStore: {},
    // Per figure and engine: { ours, floor, oursOverFloor }; the floor of the three creation forms
    // is the same INSERT run, the floor of status the SELECT run.
    h2h: {},
    merchant: {},
    infrastructure: {},
    status: {},
    floor: {},
    // H2H deposit creation against gateway-api + ledger processes over NATS (PostgreSQL).
    distributed: {},
    // Per engine: { a: all 200, b: 30% 500 } from measureCallbacks.
    callbacks: {
      settings: {
        retryScheduleMs: CALLBACK_RETRY_SCHEDULE_MS,
        requestTimeoutMs: CALLBACK_REQUEST_TIMEOUT_MS,
        leaseMs: CALLBACK_LEASE_MS,
        failShareLaneB: CALLBACK_FAIL_SHARE,
        phaseLimitMs: CALLBACK_PHASE_LIMIT_MS,
      },
    },
  };

  // The host's speed, here and again before the replay and at the end (bench/host-speed.mjs).
  results.hostSpeed = { atStart: await measureHostSpeed() };
  log(describeHostSpeed(results.hostSpeed.atStart));

  if (PHASES.has('start')) {
    log(`0. the embedded default's start, as npm start runs it (${START_RUNS} cold starts, each then warm) ...`);
    results.start = await measureStarts({ runs: START_RUNS, log });
    console.log(`\nembedded start (npm start's command, PGlite): ${describeStarts(results.start)}\n`);
  }

  const es = results.eventStore;
  if (PHASES.has('es')) {
    for (const [key, label] of ENGINES) {
      log(`1. event store appends (${label}) ...`);
      es[key] = await (key === 'pglite' ? eventStorePglite() : eventStorePostgres());
      const r = es[key];
      if (r.eventsStored !== r.n + r.appendsBefore)
        problems.push(`event store ${label}: stored ${r.eventsStored}, expected ${r.n + r.appendsBefore}`);
      console.log(
        `\nevent store appends/s ${label} (${CONCURRENCY} in flight, 1 event per new stream, 'no_stream')  ` +
          `${fmt(r.appendsPerSec)}   [N ${r.n}; p50 ${r.latencyMs.p50} ms; p99 ${r.latencyMs.p99} ms]\n`,
      );
    }
  }

  for (const [key, label] of PHASES.has('app') ? ENGINES : []) {
    const appSchema = key === 'postgres' ? `bench_app_${suffix}` : undefined;
    const floorEngine =
      key === 'pglite'
        ? { kind: 'pglite', dataDir: join(tmpRoot, 'floor-pglite') }
        : { kind: 'postgres', url: PG_URL, schema: `bench_floor_${suffix}` };
    log(
      `2-3. HTTP phases on ${label}: ${DEPOSIT_ROUNDS} rounds of (floor INSERT, then H2H, Merchant, Infrastructure, turned by one each round), then /status and the floor SELECT ...`,
    );
    const http = await httpPhase(key, appSchema, floorEngine);
    http.rounds.forEach((one, r) => check(`floor INSERT ${label} round ${r + 1}`, one.floorInsert));
    check(`floor SELECT ${label}`, http.floorSelect);
    console.log(`\n${label}`);
    const medianInsert = [];
    for (const figure of FIGURES) {
      let chosen;
      if (figure.floor === 'select') {
        const o = http.status;
        const f = http.floorSelect;
        check(`${SCENARIOS[figure.scenario].label} app ${label}`, o);
        chosen = { ours: o, floor: f, oursOverFloor: ratios(o, f) };
      } else {
        const perRound = http.rounds.map((one, r) => {
          const o = one[figure.scenario];
          check(`${SCENARIOS[figure.scenario].label} app ${label} round ${r + 1}`, o);
          const x = { round: r + 1, ours: o, floor: one.floorInsert, oursOverFloor: ratios(o, one.floorInsert) };
          if (DEPOSIT_ROUNDS > 1) console.log(httpLine(figure, x.ours, x.floor, x.oursOverFloor, `round ${x.round}`));
          return x;
        });
        // The round with the median req/s ratio gives req/s and latencies; each ratio is its own median.
        const mid = median(perRound.map((x) => x.oursOverFloor.throughput));
        const middle = perRound.find((x) => x.oursOverFloor.throughput === mid);
        medianInsert.push(middle.floor);
        chosen = {
          ours: middle.ours,
          floor: middle.floor,
          oursOverFloor: {
            throughput: mid,
            p50: median(perRound.map((x) => x.oursOverFloor.p50)),
            p99: median(perRound.map((x) => x.oursOverFloor.p99)),
            throughputRange: [
              Math.min(...perRound.map((x) => x.oursOverFloor.throughput)),
              Math.max(...perRound.map((x) => x.oursOverFloor.throughput)),
            ],
            p99Range: [
              Math.min(...perRound.map((x) => x.oursOverFloor.p99)),
              Math.max(...perRound.map((x) => x.oursOverFloor.p99)),
            ],
          },
          rounds: perRound,
          depositsStored: http.stored[figure.scenario],
        };
      }
      results[figure.key][key] = { ...chosen, floorKind: figure.floor };
      console.log(
        httpLine(
          figure,
          chosen.ours,
          chosen.floor,
          chosen.oursOverFloor,
          DEPOSIT_ROUNDS > 1 && figure.floor === 'insert' ? 'median' : '',
        ),
      );
    }
    results.floor[key] = {
      // The floor INSERT of H2H's median round (the summary's floor line); every round's is in `insertRounds`.
      insert: medianInsert[0],
      insertRounds: http.rounds.map((one) => one.floorInsert),
      select: http.floorSelect,
    };
    console.log('');
  }

  let dist;
  let dr;
  let distKafka;
  if (PHASES.has('dist')) {
    log('3b. distributed: H2H deposits against gateway-api + ledger processes over NATS (PostgreSQL) ...');
    const distSchema = `bench_dist_${suffix}`;
    dist = await withCleanup(
      `distributed (${distSchema})`,
      () => dropSchema(distSchema),
      () =>
        measureDistributed({
          pgUrl: PG_URL,
          schema: distSchema,
          bootstrap: BOOTSTRAP,
          tmpRoot,
          rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
          log,
        }),
    );
    check('H2H deposit creation distributed', dist);
    if (dist.depositsStored < dist.ok2xx + dist.warmup.ok2xx)
      problems.push(`distributed: ${dist.ok2xx + dist.warmup.ok2xx} 2xx answers but ${dist.depositsStored} stored`);
    const embeddedH2h = results.h2h.postgres?.ours ?? { latencyMs: {} };
    results.distributed = {
      h2h: dist,
      overEmbeddedPostgres: {
        throughput: ratio(dist.reqPerSec, embeddedH2h.reqPerSec),
        p50: ratio(dist.latencyMs.p50, embeddedH2h.latencyMs.p50),
        p99: ratio(dist.latencyMs.p99, embeddedH2h.latencyMs.p99),
      },
    };
    dr = results.distributed.overEmbeddedPostgres;
    console.log(
      `\ndistributed (gateway-api and ledger processes, NATS, PostgreSQL)\n` +
        `  ${`${SCENARIOS.h2hDeposit.label} (${LOAD.connections} conns)`.padEnd(36)}  req/s ${fmt(dist.reqPerSec).padStart(5)}  ` +
        `p50 ${ms(dist.latencyMs.p50).padStart(6)}  p99 ${ms(dist.latencyMs.p99).padStart(6)}` +
        `${bad(dist) > 0 ? `  [${dist.non2xx} non-2xx, ${dist.errors} errors!]` : ''}` +
        `  | embedded PostgreSQL req/s ${fmt(embeddedH2h.reqPerSec).padStart(5)}  p99 ${ms(embeddedH2h.latencyMs.p99).padStart(6)}` +
        `  | distributed/embedded req/s ${dr.throughput}  p50 ${dr.p50}  p99 ${dr.p99}\n`,
    );

    // 3c. The same over Kafka, when a broker is there (`npm run kafka:local`; CI runs one).
    if (process.env.KAFKA_BROKERS) {
      log(`3c. distributed: the same over Kafka (${process.env.KAFKA_BROKERS}) ...`);
      const kafkaSchema = `bench_distk_${suffix}`;
      distKafka = await withCleanup(
        `distributed over Kafka (${kafkaSchema})`,
        () => dropSchema(kafkaSchema),
        () =>
          measureDistributed({
            pgUrl: PG_URL,
            schema: kafkaSchema,
            bootstrap: BOOTSTRAP,
            tmpRoot,
            rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
            log,
            transport: 'kafka',
          }),
      );
      check('H2H deposit creation distributed over Kafka', distKafka);
      if (distKafka.depositsStored < distKafka.ok2xx + distKafka.warmup.ok2xx)
        problems.push(
          `distributed over Kafka: ${distKafka.ok2xx + distKafka.warmup.ok2xx} 2xx answers but ${distKafka.depositsStored} stored`,
        );
      results.distributedKafka = {
        h2h: distKafka,
        overEmbeddedPostgres: {
          throughput: ratio(distKafka.reqPerSec, embeddedH2h.reqPerSec),
          p50: ratio(distKafka.latencyMs.p50, embeddedH2h.latencyMs.p50),
          p99: ratio(distKafka.latencyMs.p99, embeddedH2h.latencyMs.p99),
        },
      };
      const kr = results.distributedKafka.overEmbeddedPostgres;
      console.log(
        `distributed (gateway-api and ledger processes, Kafka, PostgreSQL)\n` +
          `  ${`${SCENARIOS.h2hDeposit.label} (${LOAD.connections} conns)`.padEnd(36)}  req/s ${fmt(distKafka.reqPerSec).padStart(5)}  ` +
          `p50 ${ms(distKafka.latencyMs.p50).padStart(6)}  p99 ${ms(distKafka.latencyMs.p99).padStart(6)}` +
          `${bad(distKafka) > 0 ? `  [${distKafka.non2xx} non-2xx, ${distKafka.errors} errors!]` : ''}` +
          `  | distributed/embedded req/s ${kr.throughput}  p50 ${kr.p50}  p99 ${kr.p99}\n`,
      );
    } else {
      log('3c. distributed over Kafka: skipped, KAFKA_BROKERS is not set (npm run kafka:local starts a broker)');
    }
  }

  if (PHASES.has('callbacks')) {
    for (const [key, label] of ENGINES) {
      log(`4. callback delivery on ${label} (fresh app, local receiver) ...`);
      results.callbacks[key] = await callbackPhase(key, key === 'postgres' ? `bench_cb_${suffix}` : undefined);
    }
    console.log(
      `\ncallback delivery (retry schedule ${CALLBACK_RETRY_SCHEDULE_MS.join(',')} ms; N approvals in bulk while the receiver held its requests, then timed from its opening ` +
        `until every webhook-id had a 200)`,
    );
    for (const lane of Object.keys(CALLBACK_LANES)) {
      const line = (e) => {
        const r = results.callbacks[e]?.[lane];
        if (!r) return '-';
        return (
          `${fmt(r.callbacksPerSec).padStart(5)}/s  N ${r.n}  attempts ${r.attempts} (${round(r.attemptsPerCallback, 3)}/callback)  ` +
          `delivered ${round(r.deliveredShare * 100, 1)}%${r.timedOut ? '  ABORTED' : ''}`
        );
      };
      console.log(
        `  ${CALLBACK_LANES[lane].label.padEnd(32)}  PGlite ${line('pglite')}  | PostgreSQL ${line('postgres')}`,
      );
    }
    console.log('');
  }

  if (REPLAY_PHASE_LIMIT_MS > 0) {
    log('5. replay (PostgreSQL): generate events, raw read, then `transfergate replay` ...');
    results.hostSpeed.beforeReplay = await measureHostSpeed();
    log(describeHostSpeed(results.hostSpeed.beforeReplay, results.hostSpeed.atStart));
    results.replay = await replayPostgres();
    const r = results.replay;
    console.log(
      `\nreplay (${fmt(r.events)} events, PostgreSQL): ${fmt(r.replay.eventsPerSec)} events/s rebuilt ` +
        `(${fmt(r.replay.eventsPerSecIncludingChecks)} incl. invariants) | raw read ${fmt(r.raw.eventsPerSec)} events/s ` +
        `| replay/raw ${r.ratio}\n`,
    );
  }

  if (GROWTH_PHASE_LIMIT_MS > 0) {
    log('7. growth (PostgreSQL): deposits and /status on an empty store, then on a store filled by COPY ...');
    results.growth = await measureGrowthInOwnProcess({ schemaPrefix: `bench_growth_${suffix}`, log });
    for (const problem of results.growth.problems) problems.push(`growth: ${problem}`);
    console.log(`\n${describeGrowth(results.growth)}\n`);
  }

  if (process.env.BENCH_RECON !== '0') {
    log('6. reconciliation: the matcher alone, then a statement imported and matched end to end (PostgreSQL) ...');
    results.reconciliation = await measureReconciliation({ log });
    const m = results.reconciliation.matcher;
    const e = results.reconciliation.endToEnd;
    console.log(
      `\nreconciliation: matcher ${m[50000].usPerLine} µs/line at 50,000 deposits (×${m.perLineRatio50kOver5k} of 5,000: linear), ` +
        `precision ${m[50000].precision}, recall ${round(m[50000].recall, 3)}` +
        (e
          ? ` | end to end ${fmt(e.lines)} lines against ${fmt(e.deposits)} open deposits: ${fmt(e.linesPerSecond)} lines/s, ` +
            `precision ${e.precision}, recall ${e.recall}`
          : '') +
        '\n',
    );
  }

  results.hostSpeed.atEnd = await measureHostSpeed();
  log(describeHostSpeed(results.hostSpeed.atEnd, results.hostSpeed.atStart));
  results.finishedAt = new Date().toISOString();
  results.wallSeconds = round((Date.now() - started) / 1000, 1);
  results.machine.loadAvgAtEnd = os.loadavg().map((v) => round(v, 2));
  results.problems = problems;

  // A phase or engine left out (BENCH_PHASES, BENCH_ENGINES) prints '-'.
  const cell = (f) => {
    try {
      return f();
    } catch {
      return '-';
    }
  };
  const both = (f) => [cell(() => f('pglite')), cell(() => f('postgres'))];
  const rows = [
    ['figure', 'PGlite', 'PostgreSQL'],
    [
      `embedded cold start ms, median of ${START_RUNS} (range)`,
      cell(() => `${median(results.start.cold.map((x) => x.startMs))} (${range(results.start.cold, 'startMs')})`),
      '-',
    ],
    [
      'embedded idle RSS MB after a cold start, median (range)',
      cell(() => `${median(results.start.cold.map((x) => x.idleRssMb))} (${range(results.start.cold, 'idleRssMb')})`),
      '-',
    ],
    ['event store appends/s', ...both((e) => fmt(es[e].appendsPerSec))],
    ['event store append p99 (ms)', ...both((e) => es[e].latencyMs.p99)],
  ];
  for (const figure of FIGURES) {
    const x = results[figure.key];
    rows.push(
      [`${figure.short} req/s (ours)`, ...both((e) => fmt(x[e].ours.reqPerSec))],
      [`${figure.short} p50 / p99 ms (ours)`, ...both((e) => p50p99(x[e].ours.latencyMs))],
      [
        `${figure.short} ours/${FLOOR_NAME[figure.floor]} req/s / p99${figure.floor === 'insert' && DEPOSIT_ROUNDS > 1 ? ` (median of ${DEPOSIT_ROUNDS}; range)` : ''}`,
        ...both((e) => {
          const r = x[e].oursOverFloor;
          const range = r.throughputRange ? ` (${r.throughputRange.join('-')}; ${r.p99Range.join('-')})` : '';
          return `${r.throughput} / ${r.p99}${range}`;
        }),
      ],
    );
  }
  rows.push(
    ['H2H deposits distributed (NATS) req/s', '-', cell(() => fmt(dist.reqPerSec))],
    ['H2H deposits distributed p50 / p99 ms', '-', cell(() => p50p99(dist.latencyMs))],
    ['H2H distributed/embedded req/s / p99', '-', cell(() => `${dr.throughput} / ${dr.p99}`)],
  );
  if (distKafka) {
    const kr = results.distributedKafka.overEmbeddedPostgres;
    rows.push(
      ['H2H deposits distributed (Kafka) req/s', '-', fmt(distKafka.reqPerSec)],
      ['H2H deposits distributed (Kafka) p50 / p99 ms', '-', p50p99(distKafka.latencyMs)],
      ['H2H distributed (Kafka)/embedded req/s / p99', '-', `${kr.throughput} / ${kr.p99}`],
    );
  }
  for (const kind of ['insert', 'select']) {
    rows.push(
      [`${FLOOR_NAME[kind]} req/s`, ...both((e) => fmt(results.floor[e][kind].reqPerSec))],
      [`${FLOOR_NAME[kind]} p50 / p99 ms`, ...both((e) => p50p99(results.floor[e][kind].latencyMs))],
    );
  }
  for (const lane of Object.keys(CALLBACK_LANES)) {
    const short = CALLBACK_LANES[lane].short;
    const cb = (e) => results.callbacks[e][lane];
    rows.push(
      [`${short} delivered/s`, ...both((e) => `${fmt(cb(e).callbacksPerSec)}${cb(e).timedOut ? ' ABORTED' : ''}`)],
      [
        `${short} attempts (per callback) / delivered`,
        ...both(
          (e) =>
            `${cb(e).attempts} (${round(cb(e).attemptsPerCallback, 2)}) / ${cb(e).delivered} of ${cb(e).n} (${round(cb(e).deliveredShare * 100, 1)}%)`,
        ),
      ],
    );
  }
  if (results.reconciliation?.endToEnd) {
    const e = results.reconciliation.endToEnd;
    rows.push(
      [`statement lines imported + matched/s (${fmt(e.lines)} vs ${fmt(e.deposits)})`, '-', fmt(e.linesPerSecond)],
      ['automatic matches precision / recall', '-', `${e.precision} / ${e.recall}`],
    );
  }
  if (results.replay) {
    rows.push(
      [`replay events/s (${fmt(results.replay.events)} events)`, '-', fmt(results.replay.replay.eventsPerSec)],
      ['raw read of the same events/s', '-', fmt(results.replay.raw.eventsPerSec)],
      ['replay/raw', '-', results.replay.ratio],
    );
  }
  if (results.growth) {
    const g = results.growth;
    rows.push(
      [`growth (${fmt(g.events)} events): H2H/floor, filled over empty`, '-', g.ratios.deposit],
      ['growth: /status/floor, filled over empty', '-', g.ratios.status],
      ['growth: replay rate at N over N/5', '-', g.ratios.replay],
      [
        'growth: MiB per million events (store / with read models)',
        '-',
        `${g.storeMiBPerMillionEvents} / ${g.databaseMiBPerMillionEvents}`,
      ],
    );
  }
  const hs = results.hostSpeed;
  rows.push([
    'host speed, SHA-256 digests/s on all cores: start / before replay / end',
    '-',
    [hs.atStart, hs.beforeReplay, hs.atEnd].map((x) => (x ? fmt(x.digestsPerSecond) : '-')).join(' / '),
  ]);
  rows.push([
    'non-2xx + errors (H2H/Merch/Infra/Status/INSERT/SELECT)',
    ...both((e) =>
      [
        ...FIGURES.map((f) => (results[f.key][e].rounds ?? [results[f.key][e]]).reduce((n, x) => n + bad(x.ours), 0)),
        results.floor[e].insertRounds.reduce((n, x) => n + bad(x), 0),
        bad(results.floor[e].select),
      ].join('/'),
    ),
  ]);
  console.log('summary');
  console.log(table(rows));

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
  for (const schema of [
    `bench_${suffix}`,
    `bench_app_${suffix}`,
    `bench_floor_${suffix}`,
    `bench_cb_${suffix}`,
    `bench_dist_${suffix}`,
    `bench_growth_${suffix}_empty`,
    `bench_growth_${suffix}_empty_floor`,
    `bench_growth_${suffix}_filled`,
    `bench_growth_${suffix}_filled_floor`,
  ]) {
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
