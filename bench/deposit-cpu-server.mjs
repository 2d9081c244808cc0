// Child process of bench/deposit-cpu.mjs: one server (`app`: the real app on PGlite, provisioned
// like bench/run.mjs's; `floor`: bench/floor.mjs's bare Fastify + one INSERT), in a process of its
// own so that its CPU time (process.cpuUsage) is the server's alone, not the load generator's.
// Answers IPC messages: {cmd: 'sample'} -> its CPU time, SQL statements run, GC pauses so far;
// {cmd: 'close'} -> closes the server and exits. With BENCH_CPU_PROF (a file path) the app server
// is profiled from its first request on (start-up and provisioning left out) and the profile
// (.cpuprofile, for Chrome DevTools or bench/cpu-profile-top.mjs) is written there on close. With
// BENCH_RISK_RULES set the app holds 20 risk rules and 100,000 blocklist entries first.
import { randomBytes } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { startFloor } from './floor.mjs';
import { BODY_LIMIT, BOOTSTRAP, appConfig } from './app-config.mjs';

const [kind, dir] = process.argv.slice(2);
if (!['app', 'floor'].includes(kind) || !dir) throw new Error('usage: deposit-cpu-server.mjs app|floor <dir>');
mkdirSync(dir, { recursive: true });

const gc = { pauses: 0, totalMs: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.pauses++;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

// How long the event loop was blocked (a synchronous PGlite statement, a GC pause): a request
// that arrives meanwhile waits that long. Reset at every sample.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

/** Statements per SQL text (its first 80 characters, whitespace folded), counted while `counting`. */
const statements = new Map();
function countStatement(sql) {
  const key = sql.replace(/\s+/g, ' ').trim().slice(0, 80);
  statements.set(key, (statements.get(key) ?? 0) + 1);
}

/**
 * Time inside PGlite per prepared statement (the engine's work: parse, plan, execute and writing
 * the reply; the reply is read outside it), keyed like
 * `statements`: pglite-prepared.ts sends Parse (name, text) once per statement and then Bind
 * (portal, name) per run.
 */
const engineMs = new Map();
/** BENCH_SLOW_STATEMENT_MS: statements slower than this inside PGlite are printed as they happen. */
const SLOW_STATEMENT_MS = Number(process.env.BENCH_SLOW_STATEMENT_MS || Infinity);
function timePgliteStatements() {
  const names = new Map();
  const cstring = (bytes, at) => {
    const end = bytes.indexOf(0, at);
    return [Buffer.from(bytes.subarray(at, end)).toString('utf8'), end + 1];
  };
  // pglite-prepared.ts runs statements through execProtocolRawStream (reading the reply itself) and
  // prepares and closes them through execProtocolStream: both are timed.
  for (const method of ['execProtocolStream', 'execProtocolRawStream']) {
    const original = PGlite.prototype[method];
    PGlite.prototype[method] = async function (message, options) {
      let key = '(other)';
      if (message[0] === 0x50 /* P */) {
        const [name, next] = cstring(message, 5);
        const text = cstring(message, next)[0].replace(/\s+/g, ' ').trim().slice(0, 80);
        names.set(name, text);
        // PGlite's own query() parses every statement again, unnamed.
        key = name === '' ? `(parse) ${text}` : '(prepare)';
      } else if (message[0] === 0x42 /* B */) {
        const [, next] = cstring(message, 5);
        key = names.get(cstring(message, next)[0]) ?? '(unknown)';
      }
      const t0 = performance.now();
      try {
        return await original.call(this, message, options);
      } finally {
        const tookMs = performance.now() - t0;
        engineMs.set(key, (engineMs.get(key) ?? 0) + tookMs);
        if (tookMs > SLOW_STATEMENT_MS) {
          process.stderr.write(`${new Date().toISOString()} slow statement ${tookMs.toFixed(1)} ms: ${key}\n`);
        }
      }
    };
  }
}

/** Counts every statement the app's SqlDatabase runs, in and outside transactions. */
function countStatements(db) {
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  db.query = (sql, params) => {
    countStatement(sql);
    return query(sql, params);
  };
  db.transaction = (work) =>
    transaction((tx) =>
      work({
        query: (sql, params) => {
          countStatement(sql);
          return tx.query(sql, params);
        },
      }),
    );
}

const oneDecimal = (n) => Math.round(n * 10) / 10;
let close;
let url;
let store;
if (kind === 'floor') {
  const floor = await startFloor(
    { kind: 'pglite', dataDir: join(dir, 'floor-pglite') },
    {
      path: '/deposit/bank',
      bodyLimitBytes: BODY_LIMIT,
    },
  );
  url = floor.url;
  close = () => floor.close();
} else {
  const allInOne = await import('../apps/all-in-one/dist/index.js');
  const dataDir = join(dir, 'app');
  mkdirSync(dataDir, { recursive: true });
  timePgliteStatements();
  const running = await allInOne.createApp(appConfig(allInOne, { dataDir, secretKey: randomBytes(32) }));
  await running.provision(allInOne.parseBootstrap(BOOTSTRAP, 'bench'));
  if (process.env.BENCH_RISK_RULES) {
    // 20 risk rules and 100,000 blocklist entries that no request hits (bench/risk-rules.mjs).
    const { loadRiskRules } = await import('./risk-rules.mjs');
    await loadRiskRules(running, await import('../libs/contracts/dist/index.js'));
  }
  countStatements(running.db);
  store = running.store;
  await running.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${running.app.getHttpServer().address().port}`;
  const profile = process.env.BENCH_CPU_PROF ? await startProfile() : undefined;
  close = async () => {
    if (profile) writeFileSync(process.env.BENCH_CPU_PROF, JSON.stringify(await profile.stop()));
    await running.close();
  };
}

async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return { stop: async () => (await session.post('Profiler.stop')).profile };
}

process.on('message', async (message) => {
  if (message.cmd === 'sample') {
    const cpu = process.cpuUsage();
    process.send({
      cpuUs: cpu.user + cpu.system,
      gc: { ...gc },
      statements: Object.fromEntries(statements),
      engineMs: Object.fromEntries(engineMs),
      loopDelayMs: {
        p50: oneDecimal(loopDelay.percentile(50) / 1e6),
        p99: oneDecimal(loopDelay.percentile(99) / 1e6),
        max: oneDecimal(loopDelay.max / 1e6),
      },
      appends: store?.appendCount,
      appendGroups: store?.appendGroupsWritten,
      heapUsedMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    });
    loopDelay.reset();
  } else if (message.cmd === 'close') {
    await close();
    process.exit(0);
  }
});
process.send({ url });
