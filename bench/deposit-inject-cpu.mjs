// The app's own CPU per deposit on PostgreSQL, without sockets (not part of `npm run bench`):
// each checkout's app runs in this process and is sent deposits with Fastify's inject, 32 at a
// time, in alternating rounds; the process's CPU time per deposit (user + system; PostgreSQL runs
// in its own processes) and the collector's pauses per deposit are printed per round, with the
// second checkout's CPU over the first's. One build against itself swung 0.92-1.07 per round, no
// less than bench/ab.mjs's rates; but CPU per deposit does not follow the group sizes as a rate
// does, so a steady change of a few percent shows in the majority of rounds (a 4% one in 7 of 8 rounds where
// ab.mjs's rates showed nothing).
// What it leaves out: HTTP parsing and the sockets' writes; what it adds: inject's own requests
// and responses (about a tenth of the CPU and, kept alive until answered, most of what the young
// generation promotes here: do not read the collector's figures as the served app's).
//   BENCH_APP_ROOTS=/path/to/base,. BENCH_ROUNDS=6 BENCH_DEPOSITS=15000 node bench/deposit-inject-cpu.mjs
// BENCH_FORM: h2hDeposit (default), merchantDeposit or infrastructureDeposit (bench/load.mjs's
// scenarios: their paths, headers, statuses and setupRequest bodies).
// BENCH_CPU_PROF (a path prefix): each app's CPU profile of the final round, <prefix>.<n>.cpuprofile.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { BOOTSTRAP, appConfig } from './app-config.mjs';
import { SCENARIOS } from './load.mjs';

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const ROOTS = (process.env.BENCH_APP_ROOTS || '.').split(',').map((root) => resolve(root));
const N_ROUNDS = Number(process.env.BENCH_ROUNDS || 6);
const DEPOSITS = Number(process.env.BENCH_DEPOSITS || 15_000);
const WARMUP_DEPOSITS = 10_000;
const CONCURRENCY = 32;
const CPU_PROF = process.env.BENCH_CPU_PROF;
const FORM = process.env.BENCH_FORM || 'h2hDeposit';
if (!['h2hDeposit', 'merchantDeposit', 'infrastructureDeposit'].includes(FORM)) {
  throw new Error(`BENCH_FORM: not a deposit form: ${FORM}`);
}
const SCENARIO = SCENARIOS[FORM];
const suffix = randomBytes(3).toString('hex');

let gcPauseMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauseMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const apps = [];
for (const [i, root] of ROOTS.entries()) {
  const allInOne = await import(pathToFileURL(join(root, 'apps/all-in-one/dist/index.js')).href);
  const config = appConfig(allInOne, {
    dataDir: mkdtempSync(join(os.tmpdir(), 'inject-cpu-')),
    secretKey: randomBytes(32),
    databaseUrl: PG_URL,
  });
  const running = await allInOne.createApp(config, { schema: `inject_cpu${i}_${suffix}` });
  await running.provision(allInOne.parseBootstrap(BOOTSTRAP, 'bench'));
  const fastify = running.app.getHttpAdapter().getInstance();
  await fastify.ready();
  apps.push({ root, running, fastify });
}

// The bodies the bench's phase of this form sends (its autocannon setupRequest, called here
// directly): a new transaction id each, with the form's hash or key.
const setupRequest = createRequire(import.meta.url)(SCENARIO.setupRequest);
const depositBody = () => setupRequest({}, {}).body;

async function deposits(app, count) {
  let sent = 0;
  let refused = 0;
  const sender = async () => {
    while (sent < count) {
      sent++;
      const response = await app.fastify.inject({
        method: SCENARIO.method,
        url: SCENARIO.path,
        headers: SCENARIO.headers,
        payload: depositBody(),
      });
      if (response.statusCode !== SCENARIO.expect) refused++;
    }
  };
  const cpuBefore = process.cpuUsage();
  const gcBefore = gcPauseMs;
  const startedMs = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, sender));
  const cpu = process.cpuUsage(cpuBefore);
  return {
    cpuUs: (cpu.user + cpu.system) / count,
    gcUs: ((gcPauseMs - gcBefore) * 1_000) / count,
    perSecond: (count * 1_000) / (performance.now() - startedMs),
    refused,
  };
}

async function profiled(file, work) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    writeFileSync(file, JSON.stringify(profile));
  }
}

for (const app of apps) await deposits(app, WARMUP_DEPOSITS);
const results = apps.map(() => []);
for (let round = 0; round < N_ROUNDS; round++) {
  const order = round % 2 === 0 ? [...apps.keys()] : [...apps.keys()].reverse();
  for (const i of order) {
    const run = () => deposits(apps[i], DEPOSITS);
    results[i].push(
      CPU_PROF && round === N_ROUNDS - 1 ? await profiled(`${CPU_PROF}.${i + 1}.cpuprofile`, run) : await run(),
    );
  }
  console.log(
    `round ${round + 1}: ` +
      results
        .map(
          (r, i) =>
            `#${i + 1} ${r[round].cpuUs.toFixed(1)} us CPU, ${r[round].gcUs.toFixed(1)} us GC per deposit, ` +
            `${r[round].perSecond.toFixed(0)}/s${r[round].refused ? `, ${r[round].refused} refused` : ''}`,
        )
        .join(' · '),
  );
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [i, app] of apps.entries()) {
  console.log(`#${i + 1} ${app.root}: median ${median(results[i].map((r) => r.cpuUs)).toFixed(1)} us CPU per deposit`);
}
if (apps.length === 2) {
  const ratios = results[1].map((r, round) => r.cpuUs / results[0][round].cpuUs);
  console.log(
    `#2/#1 CPU per round: ${ratios.map((x) => x.toFixed(3)).join(' ')} · median ${median(ratios).toFixed(3)}`,
  );
}
for (const app of apps) await app.running.close();
// The server is shared (the tests use it too): leave none of this run's schemas behind.
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
for (const i of apps.keys()) await admin.query(`drop schema if exists inject_cpu${i}_${suffix} cascade`);
await admin.end();
