// Where the PostgreSQL server's time per deposit goes: runs the floor INSERT and the app's deposit
// scenarios back to back against TEST_DATABASE_URL and prints, per request: server CPU (all backends
// of the cluster, /proc), commits, WAL bytes, this process's CPU by thread, the main thread's waits
// for a core, and, on a cluster with pg_stat_statements preloaded, the top statements by execution
// time. Run as root or as the cluster's owner (reads /proc).
import { readFileSync, readdirSync, mkdirSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { PerformanceObserver, constants as perfConstants, performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { join } from 'node:path';
import pg from 'pg';
import * as allInOne from '../apps/all-in-one/dist/index.js';
import { SCENARIOS, runLoad } from './load.mjs';
import { startFloor } from './floor.mjs';
import { BODY_LIMIT, BOOTSTRAP, appConfig } from './app-config.mjs';

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.PROF_SECONDS || 10);
// Unmeasured load before each phase. The default 2 s leaves the app's JIT compiling through most of
// the phase; 15-25 s measure the warm app.
const WARMUP_SECONDS = Number(process.env.PROF_WARMUP_SECONDS || 2);
const WANT = (process.env.PROF_SCENARIOS || 'floorInsert,h2hDeposit,merchantDeposit,infrastructureDeposit').split(',');
const suffix = randomBytes(3).toString('hex');
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
/**
 * The top statements need the cluster started with pg_stat_statements preloaded. Without it (a
 * stock cluster) every other figure is still printed and the table is left out; the extension is
 * then not created either.
 */
const STATEMENTS = (
  await admin.query(
    `select 'pg_stat_statements' = any (regexp_split_to_array(current_setting('shared_preload_libraries'), '\\s*,\\s*')) as on`,
  )
).rows[0].on;
if (STATEMENTS) await admin.query('create extension if not exists pg_stat_statements');
else console.log('pg_stat_statements is not preloaded: the top statements are left out');

/**
 * The cluster's postmaster, looked up once: the sampler below runs every 500 ms on the app's event
 * loop, and a `psql` spawned there blocked it for about 40 ms each time (8% of a phase).
 */
const POSTMASTER_PID = Number(
  readFileSync(join((await admin.query('show data_directory')).rows[0].data_directory, 'postmaster.pid'), 'utf8').split(
    '\n',
  )[0],
);

/** CPU ticks of each process of the cluster (postmaster and its children): pid -> [kind, ticks]. */
function clusterProcesses() {
  const pmPid = POSTMASTER_PID;
  const out = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      if (Number(name) !== pmPid && ppid !== pmPid) continue;
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      // Debian names its processes after the cluster too: "postgres: 15/main: walwriter".
      const kind = /postgres: (?:\S+: )?\w+ \w+ 127/.test(cmd)
        ? 'backend'
        : (cmd.match(/postgres: (?:\S+: )?([a-z ]+)/)?.[1]?.trim() ?? 'postmaster');
      out.set(name, [kind, Number(fields[11]) + Number(fields[12])]);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * Samples the cluster's processes every 500 ms while a phase runs, so that a backend that exits
 * in the window (a pool closing an idle connection) still counts what it used up to its last sample.
 */
function sampleCluster() {
  const first = clusterProcesses();
  const last = new Map(first);
  const timer = setInterval(() => {
    for (const [pid, value] of clusterProcesses()) last.set(pid, value);
  }, 500);
  return () => {
    clearInterval(timer);
    for (const [pid, value] of clusterProcesses()) last.set(pid, value);
    const byKind = {};
    let ticks = 0;
    for (const [pid, [kind, t]] of last) {
      const used = t - (first.get(pid)?.[1] ?? 0);
      ticks += used;
      byKind[kind] = (byKind[kind] ?? 0) + used;
    }
    return { ticks, byKind };
  };
}
/**
 * The main thread's time on a CPU and time runnable but waiting for one (ns, /proc schedstat): the
 * wait is what the server's processes, woken by our writes, take from this thread on two cores.
 */
function mainThreadSched() {
  const [runNs, waitNs] = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8')
    .split(' ')
    .map(Number);
  return { runNs, waitNs };
}
const TICK_US = 1e6 / Number(execSync('getconf CLK_TCK').toString());

/** utime and stime ticks of a thread of this process (fields 14 and 15 of its stat). */
function threadTicks(tid) {
  const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]), system: Number(fields[12]) };
}
/** CPU ticks of this process's main thread (the app's event loop; autocannon has its own process). */
function mainThreadTicks() {
  const { user, system } = threadTicks(process.pid);
  return user + system;
}
/** Every thread of this process now: tid -> ticks (a thread may end meanwhile). */
function processThreads() {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${process.pid}/task`)) {
    try {
      const { user, system } = threadTicks(tid);
      out.set(tid, user + system);
    } catch {
      // ended meanwhile
    }
  }
  return out;
}
/** The machine's busy and total jiffies (/proc/stat's first line: idle and iowait are not busy). */
function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { total, busy: total - fields[3] - fields[4] };
}
/** The main thread's switches: involuntary ones are the CPU taken from it while it could run. */
function mainThreadSwitches() {
  const status = readFileSync(`/proc/${process.pid}/task/${process.pid}/status`, 'utf8');
  const count = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'))?.[1] ?? 0);
  return { voluntary: count('voluntary_ctxt_switches'), involuntary: count('nonvoluntary_ctxt_switches') };
}

async function snapshot() {
  const wal = (await admin.query('select wal_bytes::bigint as b, wal_records as r, wal_fpi as f from pg_stat_wal'))
    .rows[0];
  const db = (await admin.query('select xact_commit as c from pg_stat_database where datname = current_database()'))
    .rows[0];
  return {
    walBytes: Number(wal.b),
    walRecords: Number(wal.r),
    fpi: Number(wal.f),
    commits: Number(db.c),
    mainTicks: mainThreadTicks(),
    main: threadTicks(process.pid),
    sched: mainThreadSched(),
    switches: mainThreadSwitches(),
    threads: processThreads(),
    machine: machineTicks(),
    cpu: process.cpuUsage(),
  };
}

/** One autocannon run with the bench's load settings (load.mjs), `seconds` long. */
const load = (url, scenario, seconds) => runLoad(url, scenario, seconds, 'prof', {});

async function profile(label, url, scenario) {
  await load(url, scenario, WARMUP_SECONDS);
  globalThis.afterWarmup?.();
  if (STATEMENTS) await admin.query('select pg_stat_statements_reset()');
  await admin.query('select pg_stat_reset_shared($1)', ['wal']);
  const gc = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) {
        gc.minor++;
        gc.minorMs += entry.duration;
      } else if (entry.detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.major++;
        gc.majorMs += entry.duration;
      }
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const before = await snapshot();
  const stopSampling = sampleCluster();
  const elu0 = performance.eventLoopUtilization();
  const result = await load(url, scenario, SECONDS);
  const elu = performance.eventLoopUtilization(elu0);
  await new Promise((r) => setTimeout(r, 600)); // pg_stat counters are flushed at transaction end / every 500 ms idle
  const after = await snapshot();
  gcObserver.disconnect();
  const cpu = stopSampling();
  const ok = Number(result['2xx']);
  const statements = !STATEMENTS
    ? []
    : (
        await admin.query(
          `select calls, total_exec_time, rows, wal_bytes, shared_blks_dirtied, regexp_replace(left(query, 110), '\\s+', ' ', 'g') as q
     from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
     order by total_exec_time desc limit 14`,
        )
      ).rows;
  const per = (x) => (x / ok).toFixed(2);
  console.log(
    `\n== ${label}: ${ok} ok in ${result.duration}s = ${(ok / result.duration).toFixed(0)} req/s, p50 ${(result.latencyMicros.p50 / 1000).toFixed(1)} p99 ${(result.latencyMicros.p99 / 1000).toFixed(1)} ms, non2xx ${result.non2xx}; load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `   server CPU/req ${((cpu.ticks * TICK_US) / ok).toFixed(0)} us · commits/req ${per(after.commits - before.commits)} · WAL B/req ${per(after.walBytes - before.walBytes)} · WAL records/req ${per(after.walRecords - before.walRecords)} · FPI/req ${per(after.fpi - before.fpi)} · node main ELU ${elu.utilization.toFixed(2)} · node main CPU/req ${(((after.mainTicks - before.mainTicks) * TICK_US) / ok).toFixed(0)} us · waiting for a CPU/req ${((after.sched.waitNs - before.sched.waitNs) / 1000 / ok).toFixed(0)} us`,
  );
  // This process's CPU by thread: the main thread and the threads alive throughout (V8's platform
  // workers: the parallel scavenger's helpers and concurrent compilation; libuv's pool). The load
  // generator runs in a process of its own (bench/load-process.mjs), which reports its CPU.
  const loadUs = result.loadCpuMicros.user + result.loadCpuMicros.system;
  const processUs = after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
  const mainUs = (after.main.user + after.main.system - before.main.user - before.main.system) * TICK_US;
  let helperUs = 0;
  for (const [tid, ticks] of after.threads) {
    if (tid !== String(process.pid) && before.threads.has(tid)) helperUs += (ticks - before.threads.get(tid)) * TICK_US;
  }
  const machine = { total: after.machine.total - before.machine.total, busy: after.machine.busy - before.machine.busy };
  console.log(
    `   this process CPU/req: main ${(mainUs / ok).toFixed(0)} us (user ${(((after.main.user - before.main.user) * TICK_US) / ok).toFixed(0)}, system ${(((after.main.system - before.main.system) * TICK_US) / ok).toFixed(0)}) · V8 and libuv threads ${(helperUs / ok).toFixed(0)} us · other threads ${(Math.max(0, processUs - mainUs - helperUs) / ok).toFixed(0)} us · load generator ${(loadUs / ok).toFixed(0)} us · main thread preempted ${((after.switches.involuntary - before.switches.involuntary) / ok).toFixed(2)}/req · machine busy ${(machine.busy / machine.total).toFixed(2)} · GC: ${gc.minor} scavenges (${gc.minorMs.toFixed(0)} ms), ${gc.major} mark-compacts (${gc.majorMs.toFixed(0)} ms)`,
  );
  const kinds = Object.entries(cpu.byKind)
    .map(([k, t]) => `${k} ${((t * TICK_US) / ok).toFixed(0)}`)
    .join(' · ');
  console.log(`   server CPU/req by process: ${kinds} us`);
  const total = statements.reduce((n, s) => n + s.total_exec_time, 0);
  for (const s of statements) {
    console.log(
      `   ${((s.total_exec_time * 1000) / ok).toFixed(0).padStart(5)} us/req  calls/req ${per(Number(s.calls)).padStart(5)}  rows/call ${(Number(s.rows) / Number(s.calls)).toFixed(1).padStart(6)}  WAL B/req ${per(Number(s.wal_bytes)).padStart(8)}  ${s.q}`,
    );
  }
  return { ok, perSec: ok / result.duration, p99: result.latencyMicros.p99 / 1000, total };
}

const out = {};
if (WANT.includes('floorInsert')) {
  const floor = await startFloor(
    { kind: 'postgres', url: PG_URL, schema: `prof_floor_${suffix}` },
    { path: SCENARIOS.floorInsert.path, bodyLimitBytes: BODY_LIMIT },
  );
  out.floor = await profile('floor INSERT', floor.url, SCENARIOS.floorInsert);
  await floor.close();
  await admin.query(`drop schema prof_floor_${suffix} cascade`);
}
const dataDir = join(os.tmpdir(), `prof-${suffix}`);
mkdirSync(dataDir);
const config = appConfig(allInOne, { dataDir, secretKey: randomBytes(32), databaseUrl: PG_URL });
const schema = `prof_app_${suffix}`;
const running = await allInOne.createApp(config, { schema });
await running.provision(allInOne.parseBootstrap(BOOTSTRAP, 'bench'));
await running.app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${running.app.getHttpServer().address().port}`;
// Node-side wall time per statement kind and per transaction phase (queueing included).
const timing = new Map();
const note = (key, ms) => {
  const t = timing.get(key) ?? { n: 0, ms: 0, max: 0 };
  t.n++;
  t.ms += ms;
  t.max = Math.max(t.max, ms);
  timing.set(key, t);
};
const kindOf = (sql) => sql.replace(/\s+/g, ' ').trim().slice(0, 60);
if (process.env.PROF_TIMING) {
  const db = running.db;
  const query = db.query.bind(db);
  db.query = async (sql, params) => {
    const t = performance.now();
    try {
      return await query(sql, params);
    } finally {
      note('q ' + kindOf(sql), performance.now() - t);
    }
  };
  const transaction = db.transaction.bind(db);
  db.transaction = async (work) => {
    const t0 = performance.now();
    let t1, t2;
    try {
      return await transaction(async (tx) => {
        t1 = performance.now();
        note('tx connect+begin', t1 - t0);
        const txq = tx.query.bind(tx);
        const wrapped = {
          ...tx,
          query: async (sql, params) => {
            const t = performance.now();
            try {
              return await txq(sql, params);
            } finally {
              note('  tx q ' + kindOf(sql), performance.now() - t);
            }
          },
        };
        try {
          return await work(wrapped);
        } finally {
          t2 = performance.now();
        }
      });
    } finally {
      if (t2) note('tx commit', performance.now() - t2);
      note('tx total', performance.now() - t0);
    }
  };
}
globalThis.afterWarmup = () => timing.clear();
const printTiming = (ok) => {
  for (const [k, t] of [...timing.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 16))
    console.log(
      `   node ${(t.ms / t.n).toFixed(2).padStart(7)} ms avg  max ${t.max.toFixed(0).padStart(4)}  n/req ${(t.n / ok).toFixed(3)}  ${k}`,
    );
  timing.clear();
};
for (const name of WANT.filter((n) => n !== 'floorInsert')) {
  timing.clear();
  out[name] = await profile(name, url, SCENARIOS[name]);
  printTiming(out[name].ok);
}
await running.close();
await admin.query(`drop schema ${schema} cascade`);
if (out.floor)
  for (const [name, r] of Object.entries(out))
    if (name !== 'floor')
      console.log(
        `${name}: ours/floor ${(r.perSec / out.floor.perSec).toFixed(2)} req/s, p99 ${(r.p99 / out.floor.p99).toFixed(2)}x`,
      );
await admin.end();
