// The embedded default's start, as `npm start` runs it (after its build): `node --import
// @transfergate/observability/tracing-preload apps/all-in-one/dist/main.js` with an empty DATA_DIR
// (a cold start: the PGlite template unpacked, the schema made, the first operator created), then
// again on the same DATA_DIR (a warm start). Per start: the wall time from the spawn until
// `GET /` first answers 200, and the process's RSS after it has been idle for IDLE_MS.
//   node bench/start-phase.mjs        (after npm run build; also phase 0 of bench/run.mjs)
// Env: BENCH_START_RUNS (cold starts, each followed by a warm one, default 3).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** How long a started process is left idle before its RSS is read (the "idle RSS"). */
const IDLE_MS = 15_000;
/** A start that has not answered by then is reported as failed, not waited for. */
const START_LIMIT_MS = 60_000;
const POLL_MS = 20;
const ADMIN_PASSWORD = 'bench-Start-Passw0rd';

function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

/** One start of `npm start`'s command on `dataDir`: { startMs, idleRssMb }. */
async function startOnce(dataDir) {
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', '@transfergate/observability/tracing-preload', 'apps/all-in-one/dist/main.js'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2_000)));
  const exited = once(child, 'exit');
  try {
    let startMs;
    while (startMs === undefined) {
      if (child.exitCode !== null) throw new Error(`the start exited with ${child.exitCode}: ${stderr}`);
      if (performance.now() - startedAt > START_LIMIT_MS) throw new Error(`no answer in ${START_LIMIT_MS} ms`);
      const answered = await globalThis.fetch(`http://127.0.0.1:${port}/`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) startMs = Math.round(performance.now() - startedAt);
      else await sleep(POLL_MS);
    }
    await sleep(IDLE_MS);
    return { startMs, idleRssMb: rssMb(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** `runs` cold starts, each on a new DATA_DIR, each followed by a warm start on it. */
export async function measureStarts({ runs = 3, log = () => {} } = {}) {
  const cold = [];
  const warm = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(join(os.tmpdir(), 'transfergate-start-'));
    try {
      cold.push(await startOnce(dataDir));
      warm.push(await startOnce(dataDir));
      log(`start ${i + 1}/${runs}: cold ${cold[i].startMs} ms, warm ${warm[i].startMs} ms`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return { idleMs: IDLE_MS, cold, warm };
}

/** measureStarts' result as one line, every start's figure beside the goal. */
export function describeStarts({ cold, warm }) {
  const list = (starts, key) => starts.map((s) => s[key]).join(' · ');
  return (
    `cold ${list(cold, 'startMs')} ms to the first answer, idle RSS ${list(cold, 'idleRssMb')} MB | ` +
    `warm ${list(warm, 'startMs')} ms, idle RSS ${list(warm, 'idleRssMb')} MB (goal: cold < 5,000 ms, idle RSS < 400 MB)`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.env.BENCH_START_RUNS || 3);
  console.log(describeStarts(await measureStarts({ runs, log: console.log })));
}
