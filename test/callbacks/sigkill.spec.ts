import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { postJson } from '../support/test-app.js';
import { CB_KEYS, CallbackReceiver, answers, callbackBootstrapFile, h2hRequest } from './callback-fixture.js';
import { freePort } from '../support/free-port.js';

/**
 * The real process (`node apps/all-in-one/dist/main.js`, built by `npm test`) on PGlite, killed with
 * SIGKILL while a callback request is in flight: after a restart on the same DATA_DIR the callback
 * is delivered (same webhook-id), because due work and leases live in the database.
 */
const MAIN = resolve('apps/all-in-one/dist/main.js');

function start(env: Record<string, string>, args: string[] = []) {
  const child: ChildProcess = spawn(process.execPath, [MAIN, ...args], {
    // The receiver listens on loopback, which the egress policy refuses by default.
    env: { ...process.env, LOG_LEVEL: 'warn', CALLBACK_ALLOWED_TARGETS: '127.0.0.1/32', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  return { child, output: () => out, exited };
}

async function waitFor(predicate: () => boolean, timeoutMs: number, what: string, output: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a dispatcher process killed mid-delivery (SIGKILL)', () => {
  let receiver: CallbackReceiver;
  const dataDir = mkdtempSync(join(tmpdir(), 'tg-cb-kill-'));
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
    receiver = await new CallbackReceiver().start();
  });
  afterAll(async () => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers the callback after a restart on the same data', async () => {
    const file = join(dataDir, 'bootstrap.json');
    writeFileSync(
      file,
      JSON.stringify({
        operators: [{ username: 'admin', password: 'S3cure-pass!', role: 'admin' }],
        ...callbackBootstrapFile(receiver.base),
      }),
    );
    const port = String(await freePort());
    const env = {
      DATA_DIR: dataDir,
      PORT: port,
      HOST: '127.0.0.1',
      CALLBACK_RETRY_SCHEDULE_MS: '0,200,200,200',
      CALLBACK_REQUEST_TIMEOUT_MS: '2000',
      CALLBACK_LEASE_MS: '3000',
    };
    const first = start(env, ['--bootstrap', file]);
    running.push(first.child);
    await waitFor(() => first.output().includes('listening on'), 60_000, 'listening', first.output);

    const base = `http://127.0.0.1:${port}`;
    const externalId = `KILL-${Date.now()}`;
    receiver.script('/cb-h2h/deposit', answers.hang());
    expect((await postJson(`${base}/deposit/bank`, h2hRequest(CB_KEYS.h2h, externalId, 500))).status).toBe(201);
    const status = await postJson(
      `${base}/status/${externalId}`,
      {},
      { 'x-api-key': CB_KEYS.h2h.apiKey, 'x-api-secret': CB_KEYS.h2h.apiSecret },
    );
    const login = await postJson(`${base}/api/auth/login`, { username: 'admin', password: 'S3cure-pass!' });
    expect(login.status).toBe(201);
    const approved = await postJson(
      `${base}/panel/deposit/approve`,
      { id: status.body.uuid },
      { authorization: `Bearer ${login.body.accessToken}` },
    );
    expect(approved.status).toBe(201);

    // The first request arrives and is held open: kill the process while it is in flight.
    const held = await receiver.waitFor(
      () => receiver.at('/cb-h2h/deposit').find((r) => r.body.transactionId === externalId),
      15_000,
      'the first callback request',
    );
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(receiver.at('/cb-h2h/deposit')).toHaveLength(1);

    // The old process's leases (projection 15 s, delivery 3 s) expire on their own; a short pause
    // keeps the restart's start-up wait for the projection lease well inside its limit.
    await new Promise((r) => setTimeout(r, 3_000));
    const second = start(env);
    running.push(second.child);
    const redelivered = await receiver.waitFor(
      () => receiver.at('/cb-h2h/deposit').find((r) => r !== held && r.body.transactionId === externalId),
      45_000,
      'the callback after the restart',
    );
    expect(redelivered.headers['webhook-id']).toBe(held.headers['webhook-id']);
    expect(redelivered.raw).toBe(held.raw);

    await waitFor(() => second.output().includes('listening on'), 60_000, 'listening again', second.output);
    const token = (await postJson(`${base}/api/auth/login`, { username: 'admin', password: 'S3cure-pass!' })).body
      .accessToken as string;
    const deadline = Date.now() + 10_000;
    let detail: Record<string, unknown>;
    do {
      const res = await fetch(`${base}/panel/callbacks/${String(held.headers['webhook-id'])}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      detail = (await res.json()) as Record<string, unknown>;
      if (detail.state === 'delivered') break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    expect(detail).toMatchObject({ state: 'delivered', externalId, lastStatusCode: 200 });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/cb-h2h/deposit')).toHaveLength(2);

    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 120_000);
});
