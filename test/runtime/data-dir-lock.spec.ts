import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ISSUE_BOOTSTRAP, postJson } from '../support/test-app.js';
import { freePort } from '../support/free-port.js';

/**
 * One process per embedded data directory, with real processes: a second server and the CLIs are
 * refused while the server runs (naming its pid), and the attack run's corruption sequence (writes,
 * SIGKILL of the server mid-burst, restart) leaves a store that opens, holds every answered write,
 * and passes the replay, three times in a row.
 */
const MAIN = resolve('apps/all-in-one/dist/main.js');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const KILL_CYCLES = 3;
const BURST = 30;

interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [MAIN, ...args], {
    // The bootstrap file's callback URLs are on loopback, which the egress policy refuses by default.
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'S3cure-pass!',
      CALLBACK_ALLOWED_TARGETS: '127.0.0.1/32',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out, exited: new Promise((r) => child.on('exit', (code) => r(code))) };
}

async function until(proc: Proc, text: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!proc.output().includes(text)) {
    if (Date.now() > deadline) throw new Error(`no "${text}" within ${timeoutMs} ms; output:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const deposit = (id: string) => ({
  apikey: 'ak_test_1',
  transaction_id: id,
  amount: 250,
  fullname: 'Ali Veli',
  hash: sha256(`ak_test_1${id}sk_test_1250`),
});

describe('the embedded data directory is locked to one process', () => {
  let dataDir: string;
  let bootstrap: string;

  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
    dataDir = mkdtempSync(join(tmpdir(), 'tg-lock-'));
    bootstrap = join(dataDir, 'bootstrap.json');
    writeFileSync(bootstrap, JSON.stringify(ISSUE_BOOTSTRAP));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses a second server and the CLIs while a server runs, naming its pid; survives SIGKILL mid-burst', async () => {
    const answered: string[] = [];
    for (let cycle = 0; cycle < KILL_CYCLES; cycle++) {
      const port = await freePort();
      const server = run(['--bootstrap', bootstrap], { DATA_DIR: dataDir, PORT: String(port) });
      await until(server, 'listening on');
      const base = `http://127.0.0.1:${port}`;

      // Everything answered before a SIGKILL is still there after it.
      for (const id of answered) {
        const status = await postJson(
          `${base}/status/${id}`,
          {},
          { 'x-api-key': 'ak_test_1', 'x-api-secret': 'sk_test_1' },
        );
        expect([id, status.status]).toEqual([id, 201]);
      }

      if (cycle === 0) {
        const second = run([], { DATA_DIR: dataDir, PORT: String(await freePort()) });
        expect(await second.exited).toBe(2);
        expect(second.output()).toContain(`is in use by process ${server.child.pid}`);
        const replay = run(['replay'], { DATA_DIR: dataDir });
        expect(await replay.exited).toBe(2);
        expect(replay.output()).toContain(`is in use by process ${server.child.pid}`);
        const statement = run(['statement', '--merchant', 'Acme', '--from', '2026-01-01', '--to', '2026-02-01'], {
          DATA_DIR: dataDir,
        });
        expect(await statement.exited).toBe(2);
        expect(statement.output()).toContain(`is in use by process ${server.child.pid}`);
        // The server was not disturbed.
        expect((await postJson(`${base}/deposit/bank`, deposit(`LOCK-solo`))).status).toBe(201);
        answered.push('LOCK-solo');
      }

      // A burst in flight, then SIGKILL while it runs: once its first answer is in (on a loaded
      // machine a fixed delay could kill before any, and prove nothing), the rest are mid-way.
      const burst = Array.from({ length: BURST }, (_, i) => `LOCK-${cycle}-${i}`);
      let firstAnswer: () => void = () => undefined;
      const firstAnswered = new Promise<void>((resolve) => (firstAnswer = resolve));
      const results = burst.map((id) =>
        postJson(`${base}/deposit/bank`, deposit(id)).then(
          (res) => {
            firstAnswer();
            return { id, status: res.status };
          },
          () => ({ id, status: 0 }),
        ),
      );
      await Promise.race([firstAnswered, new Promise((r) => setTimeout(r, 5_000))]);
      server.child.kill('SIGKILL');
      await server.exited;
      for (const result of await Promise.all(results)) if (result.status === 201) answered.push(result.id);
    }

    // A clean stop, then the replay opens the store alone and finds everything consistent.
    const port = await freePort();
    const last = run([], { DATA_DIR: dataDir, PORT: String(port) });
    await until(last, 'listening on');
    last.child.kill('SIGTERM');
    expect(await last.exited).toBe(0);
    const replay = run(['replay', '--no-progress'], { DATA_DIR: dataDir });
    expect([await replay.exited, replay.output()]).toEqual([0, expect.any(String)]);
    expect(answered.length).toBeGreaterThan(1);
  }, 240_000);
});
