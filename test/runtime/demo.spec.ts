import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/free-port.js';
import { sha256 } from '../callbacks/callback-fixture.js';

/**
 * `npm start -- --demo` as an integrator meets it: every demo provider is a sandbox provider (the
 * sandbox example of docs/integrators.md works as written, and again after a restart on the same data
 * directory), the banner says where the demo's callbacks go, and with LOG_FORMAT=json, or in
 * production writing to a pipe, every line the process prints (banner and stop lines included) is a
 * JSON line.
 */
const MAIN = resolve('apps/all-in-one/dist/main.js');

interface Server {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

async function startDemo(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Server> {
  expect(existsSync(MAIN)).toBe(true);
  const base: Record<string, string> = { ...(process.env as Record<string, string>) };
  delete base.HOST;
  delete base.ADMIN_PASSWORD;
  delete base.LOG_FORMAT;
  const child = spawn(process.execPath, [MAIN, '--demo'], {
    env: { ...base, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', PAYMENT_PAGE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const deadline = Date.now() + 90_000;
  while (!out.includes('transfergate is ready')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // The banner is the last thing a start prints; give its last lines a moment to arrive whole.
  await new Promise((r) => setTimeout(r, 300));
  return {
    child,
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

function docsSandboxExample(): string {
  const docs = readFileSync(resolve('docs/integrators.md'), 'utf8');
  const start = docs.indexOf('## Sandbox: every callback before going live');
  expect(start).toBeGreaterThanOrEqual(0);
  const next = docs.indexOf('\n## ', start + 1);
  const section = docs.slice(start, next === -1 ? undefined : next);
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('npm start -- --demo for integrators', () => {
  it('provisions sandbox providers: the docs sandbox example works as written, and again after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tg-demo-sbx-'));
    const port = await freePort();
    let server = await startDemo(dataDir, port);
    try {
      // The banner names where the demo's callbacks go.
      expect(server.output()).toMatch(
        /Callbacks {6}http:\/\/127\.0\.0\.1:9999\/callbacks\/\{merchant,h2h,infra\}\/\{deposit,withdrawal\}/,
      );
      const script = docsSandboxExample().replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
      const printed = execFileSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 30_000 });
      const answers = printed
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(answers).toHaveLength((script.match(/^\s*curl /gm) ?? []).length);
      for (const answer of answers) expect(answer.status === true || answer.success === true).toBe(true);
      expect(answers.filter((a) => a.status === 'approved' || a.status === 'rejected')).toEqual([
        expect.objectContaining({ transactionId: 'SANDBOX-1', status: 'approved' }),
        expect.objectContaining({ transactionId: 'SANDBOX-2', status: 'rejected' }),
      ]);

      // A restart on the same data directory keeps the providers sandbox providers.
      expect(await server.stop()).toBe(0);
      server = await startDemo(dataDir, port);
      const id = `SANDBOX-R-${Date.now()}`;
      const created = await post(`http://127.0.0.1:${port}/deposit/bank`, {
        apikey: 'demo_h2h_key',
        transaction_id: id,
        amount: 300,
        fullname: 'Ayşe Yılmaz',
        hash: sha256(`demo_h2h_key${id}demo_h2h_secret300`),
      });
      expect(created.status).toBe(201);
      const approved = await post(
        `http://127.0.0.1:${port}/sandbox/transactions/${id}/approve`,
        {},
        { 'x-api-key': 'demo_h2h_key', 'x-api-secret': 'demo_h2h_secret' },
      );
      expect([approved.status, approved.body.status]).toEqual([201, 'approved']);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);

  it.each([
    ['LOG_FORMAT=json', { LOG_FORMAT: 'json' }],
    // The Docker image's setting: production writing to a container's log (not a terminal).
    ['NODE_ENV=production without LOG_FORMAT, stdout a pipe', { NODE_ENV: 'production' }],
  ])(
    '%s: the start banner and the stop lines are JSON lines too, without the generated password',
    async (_what, env) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'tg-demo-json-'));
      const port = await freePort();
      const server = await startDemo(dataDir, port, env);
      try {
        expect(await server.stop()).toBe(0);
        const lines = server
          .output()
          .split('\n')
          .filter((line) => line.trim() !== '');
        const notJson = lines.filter((line) => {
          try {
            return typeof JSON.parse(line) !== 'object';
          } catch {
            return true;
          }
        });
        expect(notJson).toEqual([]);
        const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
        const messages = parsed.map((line) => line.msg);
        expect(messages).toEqual(
          expect.arrayContaining(['transfergate is ready', 'SIGTERM: draining in-flight requests, then exiting']),
        );
        const ready = parsed.find((line) => line.msg === 'transfergate is ready')!;
        expect(ready).toMatchObject({
          level: 'info',
          service: 'all-in-one',
          api: `http://127.0.0.1:${port}`,
          demoCallbacks: 'http://127.0.0.1:9999/callbacks/{merchant,h2h,infra}/{deposit,withdrawal}',
          adminPasswordFile: join(dataDir, 'admin-password'),
        });
        // A JSON line goes to a log collector: the generated password is only in its 0600 file.
        const password = readFileSync(join(dataDir, 'admin-password'), 'utf8').trim();
        expect(password.length).toBeGreaterThanOrEqual(12);
        expect(server.output()).not.toContain(password);
      } finally {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
