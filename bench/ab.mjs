// A/B of two builds (or more) on one engine: the floor and one app per checkout root, all in this
// process and loaded in alternating short rounds, so every round's ratios share one minute of this
// noisy host (single runs of one build swing 10-20%). Not part of `npm run bench`.
//   BENCH_APP_ROOTS=/path/to/base,. BENCH_ENGINE=postgres|pglite BENCH_SCENARIO=h2hDeposit \
//   BENCH_ROUNDS=6 BENCH_SECONDS=5 node bench/ab.mjs            (each root built first)
// Prints each round's ours/floor per root and, for two roots, the second's rate over the first's.
// BENCH_WARMUP_SECONDS (default 15): unmeasured load of the floor and of each app before the first
// round, so that no round measures V8 still compiling the app (it did for 10-15 s of load).
// BENCH_CPU_PROF (a path prefix): the main thread's CPU profile of each app's measured phase in
// the final round, written to <prefix>.<app number>.cpuprofile (bench/cpu-profile-top.mjs reads it);
// the floor's phases and the start-up are left out, so the shares are the app's own.
// BENCH_RISK_RULES (app numbers, e.g. `2`): those apps get 20 risk rules and 100,000 blocklist
// entries (bench/risk-rules.mjs) that no request hits, so one root can be compared with and without.
// The builds share one process: a process-wide change (a promise hook, a V8 flag) cannot be
// compared here; run bench/pg-profile.mjs of each checkout in turn instead.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCENARIOS, runLoad } from './load.mjs';
import { startFloor } from './floor.mjs';
import { BODY_LIMIT, BOOTSTRAP, appConfig } from './app-config.mjs';
import { loadRiskRules } from './risk-rules.mjs';

const ENGINE = process.env.BENCH_ENGINE || 'postgres';
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const scenarioName = process.env.BENCH_SCENARIO || 'h2hDeposit';
const scenario = SCENARIOS[scenarioName];
if (!scenario) throw new Error(`BENCH_SCENARIO: unknown ${scenarioName}`);
const N_ROUNDS = Number(process.env.BENCH_ROUNDS || 6);
const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);
const ROOTS = (process.env.BENCH_APP_ROOTS || '.').split(',').map((root) => resolve(root));
const CPU_PROF = process.env.BENCH_CPU_PROF;
const RISK_APPS = new Set((process.env.BENCH_RISK_RULES || '').split(',').filter(Boolean).map(Number));
const suffix = randomBytes(3).toString('hex');
const scratch = (name) => mkdtempSync(join(os.tmpdir(), `ab-${name}-`));

const floor = await startFloor(
  ENGINE === 'postgres'
    ? { kind: 'postgres', url: PG_URL, schema: `ab_floor_${suffix}` }
    : { kind: 'pglite', dataDir: scratch('floor') },
  { path: SCENARIOS.floorInsert.path, bodyLimitBytes: BODY_LIMIT },
);
const apps = [];
for (const [i, root] of ROOTS.entries()) {
  const allInOne = await import(pathToFileURL(join(root, 'apps/all-in-one/dist/index.js')).href);
  const dataDir = scratch(`app${i}`);
  const config = appConfig(allInOne, {
    dataDir,
    secretKey: randomBytes(32),
    ...(ENGINE === 'postgres' ? { databaseUrl: PG_URL } : {}),
  });
  const running = await allInOne.createApp(config, ENGINE === 'postgres' ? { schema: `ab_app${i}_${suffix}` } : {});
  await running.provision(allInOne.parseBootstrap(BOOTSTRAP, 'bench'));
  if (RISK_APPS.has(i + 1)) {
    const contracts = await import(pathToFileURL(join(root, 'libs/contracts/dist/index.js')).href);
    const loaded = await loadRiskRules(running, contracts);
    console.log(`#${i + 1}: ${loaded.rules} risk rules, ${loaded.entries} blocklist entries`);
  }
  await running.app.listen({ port: 0, host: '127.0.0.1' });
  apps.push({
    name: `#${i + 1} ${root}`,
    running,
    url: `http://127.0.0.1:${running.app.getHttpServer().address().port}`,
  });
}
if (WARMUP_SECONDS > 0) {
  await runLoad(floor.url, SCENARIOS.floorInsert, WARMUP_SECONDS, 'ab-jit-warm-up', {});
  for (const app of apps) await runLoad(app.url, scenario, WARMUP_SECONDS, 'ab-jit-warm-up', {});
}
async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return session;
}
async function stopProfile(session, file) {
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const allRounds = [];
for (let r = 0; r < N_ROUNDS; r++) {
  await runLoad(floor.url, SCENARIOS.floorInsert, 1, 'ab-warm', {});
  const f = await runLoad(floor.url, SCENARIOS.floorInsert, SECONDS, 'ab-floor', {});
  const thisRound = { floor: f['2xx'] / f.duration, floorP99: f.latencyMicros.p99 / 1000, apps: [] };
  // Alternate which app goes first, so neither always runs right after the floor.
  const order = r % 2 === 0 ? apps : [...apps].reverse();
  for (const app of order) {
    await runLoad(app.url, scenario, 1, 'ab-warm', {});
    const profiling = CPU_PROF && r === N_ROUNDS - 1 ? await startProfile() : undefined;
    const res = await runLoad(app.url, scenario, SECONDS, 'ab-app', {});
    if (profiling) await stopProfile(profiling, `${CPU_PROF}.${apps.indexOf(app) + 1}.cpuprofile`);
    thisRound.apps[apps.indexOf(app)] = {
      rate: res['2xx'] / res.duration,
      p99: res.latencyMicros.p99 / 1000,
      non2xx: res.non2xx,
    };
  }
  allRounds.push(thisRound);
  console.log(
    `round ${r + 1}: floor ${thisRound.floor.toFixed(0)} req/s, p99 ${thisRound.floorP99.toFixed(1)} ms · ` +
      thisRound.apps
        .map(
          (a, i) =>
            `#${i + 1} ${(a.rate / thisRound.floor).toFixed(2)} (p99 ${(a.p99 / thisRound.floorP99).toFixed(2)}x${a.non2xx ? `, ${a.non2xx} non-2xx` : ''})`,
        )
        .join(' · '),
  );
}
for (const [i, app] of apps.entries()) {
  console.log(
    `${app.name}: ${scenarioName} ours/floor median ${median(allRounds.map((r) => r.apps[i].rate / r.floor)).toFixed(2)}, p99 ${median(allRounds.map((r) => r.apps[i].p99 / r.floorP99)).toFixed(2)}x`,
  );
}
if (apps.length === 2) {
  const ratios = allRounds.map((r) => r.apps[1].rate / r.apps[0].rate);
  console.log(`#2/#1 per round: ${ratios.map((x) => x.toFixed(2)).join(' ')} · median ${median(ratios).toFixed(2)}`);
}
for (const app of apps) await app.running.close();
await floor.close();
// The server is shared (the tests use it too): leave none of this run's schemas behind.
if (ENGINE === 'postgres') {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  for (const schema of [`ab_floor_${suffix}`, ...apps.map((_, i) => `ab_app${i}_${suffix}`)]) {
    await admin.query(`drop schema if exists ${schema} cascade`);
  }
  await admin.end();
}
