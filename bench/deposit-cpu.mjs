// Deposit creation on PGlite, CPU per request (not part of `npm run bench`): the floor server
// (bare Fastify + one INSERT, bench/floor.mjs) and the real app each run in a child process of
// their own (bench/deposit-cpu-server.mjs), loaded by bench/load.mjs's autocannon phases from this
// process, so the server's CPU time per 2xx answer is measured apart from the load generator's.
// Per deposit phase: req/s, p99 and CPU µs per 2xx, each beside the floor's of the same run,
// the SQL statements per deposit, and the server's GC pauses.
//   node bench/deposit-cpu.mjs                  (after npm run build)
// Env: BENCH_FORMS (comma list of h2hDeposit, merchantDeposit, infrastructureDeposit; the order
//      they run in, default that one), BENCH_ROUNDS (floor + app rounds, default 1),
//      BENCH_APP_ROOTS (comma list of checkout roots to load the app from, each round running
//      them one after the other after the floor, e.g. a build of the base commit and this one, for
//      a back-to-back comparison; each root's own bench/deposit-cpu-server.mjs is used; default
//      this checkout),
//      BENCH_SERVER_NODE_ARGS (node flags for the floor and app servers alike),
//      BENCH_CPU_PROF (a file: the app server's CPU profile from its first request to its close).
//      BENCH_SLOW_STATEMENT_MS (a number: the app server prints every statement that took longer
//      inside PGlite, with the time, to stderr: the way to find its stalls).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { SCENARIOS, measure, round } from './load.mjs';

const FORMS = (process.env.BENCH_FORMS || 'h2hDeposit,merchantDeposit,infrastructureDeposit').split(',');
const N_ROUNDS = Number(process.env.BENCH_ROUNDS || 1);
const SERVER_TIMEOUT_MS = 120_000;
for (const form of FORMS) if (!SCENARIOS[form]) throw new Error(`BENCH_FORMS: unknown ${form}`);

const tmpRoot = mkdtempSync(join(os.tmpdir(), 'transfergate-deposit-cpu-'));

async function startServer(kind, root) {
  const script = join(root, 'bench', 'deposit-cpu-server.mjs');
  const { BENCH_CPU_PROF, ...env } = process.env;
  const child = fork(script, [kind, join(tmpRoot, `${kind}-${Date.now()}`)], {
    env: kind === 'app' && BENCH_CPU_PROF ? process.env : env,
    // Node flags for both servers alike (e.g. heap sizes), space-separated.
    execArgv: (process.env.BENCH_SERVER_NODE_ARGS || '').split(' ').filter(Boolean),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [hello] = await Promise.race([
    once(child, 'message'),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`${kind} server did not start`)), SERVER_TIMEOUT_MS).unref(),
    ),
  ]);
  const sample = async () => {
    child.send({ cmd: 'sample' });
    const [reply] = await once(child, 'message');
    return reply;
  };
  const close = async () => {
    child.send({ cmd: 'close' });
    await once(child, 'exit');
  };
  return { url: hello.url, sample, close };
}

async function phase(server, name) {
  const before = await server.sample();
  const result = await measure(server.url, SCENARIOS[name], name);
  const after = await server.sample();
  const answered = result.ok2xx + result.warmup.ok2xx;
  const statements = {};
  for (const [sql, n] of Object.entries(after.statements)) {
    const delta = n - (before.statements[sql] ?? 0);
    if (delta > 0) statements[sql] = round(delta / answered, 3);
  }
  const engineUs = {};
  for (const [sql, msTotal] of Object.entries(after.engineMs ?? {})) {
    const delta = msTotal - (before.engineMs?.[sql] ?? 0);
    if (delta > 0) engineUs[sql] = round((delta * 1000) / answered);
  }
  return {
    engineUsPerOk: Object.values(engineUs).reduce((a, b) => a + b, 0),
    engineUs,
    reqPerSec: result.reqPerSec,
    p50Ms: result.latencyMs.p50,
    p99Ms: result.latencyMs.p99,
    bad: result.non2xx + result.errors + result.timeouts + result.warmup.non2xx + result.warmup.errors,
    cpuUsPerOk: round((after.cpuUs - before.cpuUs) / answered),
    gcMsPerSecond: round((after.gc.totalMs - before.gc.totalMs) / (result.seconds + 2), 1),
    gcMaxMs: round(after.gc.maxMs, 1),
    heapUsedMb: after.heapUsedMb,
    loopDelayMs: after.loopDelayMs,
    appendsPerGroup:
      after.appendGroups > before.appendGroups
        ? round((after.appends - before.appends) / (after.appendGroups - before.appendGroups), 1)
        : undefined,
    statementsPerOk: round(
      Object.values(statements).reduce((a, b) => a + b, 0),
      2,
    ),
    statements,
  };
}

const here = fileURLToPath(new URL('..', import.meta.url));
const appRoots = (process.env.BENCH_APP_ROOTS || here).split(',');
console.log(
  `apps from ${appRoots.join(', ')}; forms ${FORMS.join(', ')}; load average ${os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);
try {
  for (let r = 0; r < N_ROUNDS; r++) {
    const floorServer = await startServer('floor', here);
    const floor = await phase(floorServer, 'floorInsert');
    await floorServer.close();
    console.log(
      `floor INSERT: ${floor.reqPerSec} req/s, p99 ${floor.p99Ms} ms, ${floor.cpuUsPerOk} µs CPU/req, GC ${floor.gcMsPerSecond} ms/s` +
        `, max pause ${floor.gcMaxMs} ms, loop blocked p99 ${floor.loopDelayMs.p99} ms, max ${floor.loopDelayMs.max} ms`,
    );
    for (const appRoot of appRoots) {
      const app = await startServer('app', appRoot);
      if (appRoots.length > 1) console.log(`app ${appRoot}`);
      for (const name of FORMS) {
        const ours = await phase(app, name);
        console.log(
          `${name.padEnd(22)} ${String(ours.reqPerSec).padStart(7)} req/s (${round(ours.reqPerSec / floor.reqPerSec, 2)} of floor)` +
            `  p99 ${ours.p99Ms} ms (${round(ours.p99Ms / floor.p99Ms, 2)}×)  CPU ${ours.cpuUsPerOk} µs/deposit` +
            ` (${round(ours.cpuUsPerOk / floor.cpuUsPerOk, 2)}× floor; in PGlite ${ours.engineUsPerOk} µs)  GC ${ours.gcMsPerSecond} ms/s, max pause ${ours.gcMaxMs} ms, heap ${ours.heapUsedMb} MB` +
            `  SQL ${ours.statementsPerOk}/deposit, ${ours.appendsPerGroup} appends/group` +
            `  loop blocked p99 ${ours.loopDelayMs.p99} ms, max ${ours.loopDelayMs.max} ms${ours.bad ? `  [${ours.bad} failed!]` : ''}`,
        );
        if (process.env.BENCH_SHOW_SQL)
          for (const sql of new Set([...Object.keys(ours.statements), ...Object.keys(ours.engineUs)]))
            console.log(
              `    ${String(ours.statements[sql] ?? '-').padStart(6)}/deposit ${String(ours.engineUs[sql] ?? '-').padStart(5)} µs  ${sql}`,
            );
      }
      await app.close();
    }
    console.log(
      `load average ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
  }
} finally {
  rmSync(tmpRoot, { recursive: true, force: true });
}
