// Distributed phase of `npm run bench`: the same H2H deposit workload as the embedded phase
// (bench/load.mjs, same connections and durations), sent to a gateway-api PROCESS whose commands
// travel over NATS, or over Kafka (KAFKA_BROKERS, `npm run kafka:local`), to a ledger PROCESS, both
// on a fresh PostgreSQL schema. run.mjs prints each beside the embedded PostgreSQL figure of the same
// run, as a ratio.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearTimeout, setTimeout } from 'node:timers';
import pg from 'pg';
import { freePort } from './free-port.mjs';
import { SCENARIOS, measure } from './load.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const READY_TIMEOUT_MS = 60_000;
const PROVISION_TIMEOUT_MS = 60_000;
const OUTPUT_LIMIT_CHARS = 100_000;

function spawnNode(script, args, env) {
  const child = spawn(process.execPath, [join(ROOT, script), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const append = (d) => {
    if (output.length < OUTPUT_LIMIT_CHARS) output += d.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, output: () => output };
}

async function waitReady(proc, url, name) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${name} exited before it was ready:\n${proc.output()}`);
    try {
      const response = await globalThis.fetch(`${url}/readyz`, { signal: globalThis.AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} not ready within ${READY_TIMEOUT_MS} ms:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts ledger + gateway-api as processes, provisions `bootstrap` through the ledger
 * (`apps/all-in-one/dist/provision-main.js`), measures H2H deposit creation against the gateway,
 * counts what was stored, and stops everything (the caller drops the schema).
 */
export async function measureDistributed({
  pgUrl,
  schema,
  bootstrap,
  tmpRoot,
  rateLimitPerMinute,
  log,
  transport = 'nats',
  kafkaBrokers = process.env.KAFKA_BROKERS,
}) {
  if (transport === 'kafka' && !kafkaBrokers) throw new Error('the Kafka phase needs KAFKA_BROKERS');
  const env = {
    ...process.env,
    DATABASE_URL: pgUrl,
    DATABASE_SCHEMA: schema,
    SECRET_KEY: randomBytes(32).toString('base64'),
    TRANSPORT: transport,
    NATS_URL,
    ...(transport === 'kafka' ? { KAFKA_BROKERS: kafkaBrokers } : {}),
    MESSAGING_PREFIX: `bench${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    RATE_LIMIT_PER_MINUTE: String(rateLimitPerMinute),
    // The bootstrap's callback URLs are on loopback, which the egress policy refuses by default.
    CALLBACK_ALLOWED_TARGETS: '127.0.0.1/32',
  };
  const processes = [];
  const stop = async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.race([
      Promise.all(processes.map((p) => p.exited)),
      new Promise((r) => setTimeout(r, 10_000).unref()),
    ]);
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  };
  try {
    const t0 = Date.now();
    const ledgerPort = await freePort();
    const ledger = spawnNode('services/ledger/dist/main.js', [], { ...env, PORT: String(ledgerPort) });
    processes.push(ledger);
    await waitReady(ledger, `http://127.0.0.1:${ledgerPort}`, 'ledger');
    const gatewayPort = await freePort();
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const gateway = spawnNode('services/gateway-api/dist/main.js', [], { ...env, PORT: String(gatewayPort) });
    processes.push(gateway);
    await waitReady(gateway, gatewayUrl, 'gateway-api');
    const file = join(tmpRoot, 'distributed-bootstrap.json');
    writeFileSync(file, JSON.stringify(bootstrap));
    const provision = spawnNode('apps/all-in-one/dist/provision-main.js', ['--bootstrap', file], env);
    const timer = setTimeout(() => provision.child.kill('SIGKILL'), PROVISION_TIMEOUT_MS);
    const { code } = await provision.exited;
    clearTimeout(timer);
    if (code !== 0) throw new Error(`provisioning failed (${code}):\n${provision.output()}`);
    const startupSeconds = Math.round((Date.now() - t0) / 100) / 10;
    log(
      `  distributed: ledger :${ledgerPort} + gateway-api :${gatewayPort} over ${transport} up and provisioned in ${startupSeconds} s`,
    );
    log(`  distributed: ${SCENARIOS.h2hDeposit.label} (POST /deposit/bank) against the gateway-api process ...`);
    const result = await measure(gatewayUrl, SCENARIOS.h2hDeposit, `distributed ${transport} h2hDeposit`);
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `select count(*)::int as n from ${schema}.es_events where type = 'DepositRequested' and data->>'form' = 'h2h'`,
      );
      result.depositsStored = rows[0].n;
    } finally {
      await client.end();
    }
    return { ...result, startupSeconds, processes: ['ledger', 'gateway-api'], transport };
  } finally {
    await stop();
  }
}
