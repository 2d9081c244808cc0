import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ISSUE_BOOTSTRAP, postJson } from '../support/test-app.js';
import { freePort } from '../support/free-port.js';

/**
 * The real entry point as ops run it: `node apps/all-in-one/dist/main.js` (npm start), embedded
 * PGlite in DATA_DIR. `npm test` builds first; without a build this fails and says so.
 */
const MAIN = resolve('apps/all-in-one/dist/main.js');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function start(
  env: Record<string, string>,
  args: string[] = [],
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MAIN, ...args], {
    // The bootstrap file's callback URLs are on loopback, which the egress policy refuses by default.
    env: { ...process.env, LOG_LEVEL: 'warn', CALLBACK_ALLOWED_TARGETS: '127.0.0.1/32', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

/** An HTTP request whose body is only half sent until `finish()`: in flight for as long as we like. */
async function halfSentRequest(port: number, payload: unknown): Promise<{ finish: () => Promise<number> }> {
  const raw = Buffer.from(JSON.stringify(payload));
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let response = '';
  socket.on('data', (chunk) => (response += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `POST /deposit/bank HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${raw.length}\r\nconnection: close\r\n\r\n`,
  );
  const half = Math.floor(raw.length / 2);
  socket.write(raw.subarray(0, half));
  return {
    async finish() {
      socket.write(raw.subarray(half));
      await closed;
      return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
    },
  };
}

async function waitFor(predicate: () => boolean, timeoutMs: number, what: string, output: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the all-in-one process (npm start)', () => {
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
  });

  it('starts on PGlite with --bootstrap, serves the slice, prints the first admin password once, drains in-flight requests on SIGTERM and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tg-proc-'));
    const file = join(dataDir, 'bootstrap.json');
    const withoutOperators = { ...structuredClone(ISSUE_BOOTSTRAP), operators: [] };
    writeFileSync(file, JSON.stringify(withoutOperators));
    const port = String(await freePort());
    const first = start({ DATA_DIR: dataDir, PORT: port }, ['--bootstrap', file]);
    await waitFor(() => first.output().includes('listening on'), 60_000, 'listening', first.output);
    expect(first.output()).toMatch(/operator "admin" created with password \S{12,}/);

    const base = `http://127.0.0.1:${port}`;
    const body = (id: string) => ({
      apikey: 'ak_test_1',
      transaction_id: id,
      amount: 250,
      fullname: 'Ali Veli',
      hash: sha256(`ak_test_1${id}sk_test_1250`),
    });
    expect((await postJson(`${base}/deposit/bank`, body('PROC-0'))).status).toBe(201);
    // 20 requests truly in flight at SIGTERM: headers and half the body sent, the rest after the signal.
    const slow = await Promise.all(
      Array.from({ length: 20 }, (_, i) => halfSentRequest(Number(port), body(`PROC-${i + 1}`))),
    );
    await new Promise((r) => setTimeout(r, 500));
    first.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const statuses = await Promise.all(slow.map((request) => request.finish()));
    expect(statuses).toEqual(Array(20).fill(201));
    expect(await first.exited).toBe(0);

    // Restart on the same data: state survived, no new admin password, bootstrap again changes nothing.
    const second = start({ DATA_DIR: dataDir, PORT: port }, ['--bootstrap', file]);
    await waitFor(() => second.output().includes('listening on'), 60_000, 'listening again', second.output);
    expect(second.output()).toContain('0 records changed');
    expect(second.output()).not.toContain('created with password');
    const status = await postJson(
      `${base}/status/PROC-7`,
      {},
      { 'x-api-key': 'ak_test_1', 'x-api-secret': 'sk_test_1' },
    );
    expect(status).toMatchObject({
      status: 201,
      body: { transactionId: 'PROC-7', status: 'awaiting_payment', amount: 250 },
    });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('refuses to start on bad configuration with a clear message and exit code 2', async () => {
    const bad = start({ PORT: '99999', DATA_DIR: mkdtempSync(join(tmpdir(), 'tg-bad-')) });
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toContain('PORT must be an integer 1..65535 (got "99999")');
  });

  it('refuses a provisioning file whose callback URL is an internal address, before anything is written', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tg-egress-'));
    const file = join(dataDir, 'bootstrap.json');
    const metadata = structuredClone(ISSUE_BOOTSTRAP);
    metadata.infrastructures[0]!.callback_withdrawal = 'http://169.254.169.254/latest/meta-data/';
    writeFileSync(file, JSON.stringify(metadata));
    const refused = start({ DATA_DIR: dataDir, PORT: String(await freePort()), CALLBACK_ALLOWED_TARGETS: '' }, [
      '--bootstrap',
      file,
    ]);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toContain(
      'infrastructures.0.callback_deposit (acme): callback URL http://127.0.0.1:9999: 127.0.0.1 is a loopback address',
    );
    expect(refused.output()).toContain(
      'infrastructures.0.callback_withdrawal (acme): callback URL http://169.254.169.254: 169.254.169.254 is a cloud metadata address',
    );
    expect(existsSync(join(dataDir, 'pgdata'))).toBe(false);
  });
});
