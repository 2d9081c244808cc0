import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/free-port.js';

/**
 * What a newcomer sees first: `npm test` names what is missing before it builds anything, and
 * `npm start` ends with where everything is, without hundreds of start-up lines before it.
 */
const MAIN = resolve('apps/all-in-one/dist/main.js');
const CHECK = resolve('scripts/check-prerequisites.mjs');

describe('the first run', () => {
  it('npm test requires a Kafka broker only under REQUIRE_KAFKA=1 (CI), then names it like the others', async () => {
    const closedKafka = await freePort();
    const run = (env: Record<string, string | undefined>) =>
      spawnSync(process.execPath, [CHECK], { env: { ...process.env, ...env }, encoding: 'utf8' });
    const down = run({ REQUIRE_KAFKA: '1', KAFKA_BROKERS: `127.0.0.1:${closedKafka}` });
    expect(down.status).toBe(1);
    expect(down.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`Kafka is not answering on 127\\.0\\.0\\.1:${closedKafka}.*npm run kafka:local`),
      ),
    ]);
    const unset = run({ REQUIRE_KAFKA: '1', KAFKA_BROKERS: '' });
    expect(unset.status).toBe(1);
    expect(unset.stderr).toMatch(/Kafka \(REQUIRE_KAFKA=1\) but KAFKA_BROKERS is not set/);
    // Not required: an unreachable or absent broker is not a missing prerequisite (the suites skip).
    expect(run({ REQUIRE_KAFKA: '', KAFKA_BROKERS: `127.0.0.1:${closedKafka}` }).status).toBe(0);
    expect(run({ REQUIRE_KAFKA: '', KAFKA_BROKERS: '' }).status).toBe(0);
  });

  it('npm test checks its prerequisites first: one line per missing one, with the command, and exit 1', async () => {
    const closedDb = await freePort();
    const closedNats = await freePort();
    const missing = spawnSync(process.execPath, [CHECK], {
      env: {
        ...process.env,
        TEST_DATABASE_URL: `postgres://postgres@127.0.0.1:${closedDb}/test`,
        NATS_URL: `nats://127.0.0.1:${closedNats}`,
        CHROMIUM_PATH: '/nonexistent/chromium',
      },
      encoding: 'utf8',
    });
    expect(missing.status).toBe(1);
    const lines = missing.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`PostgreSQL .*127\\.0\\.0\\.1:${closedDb}.*pg_ctlcluster .* main start`));
    expect(lines[1]).toMatch(
      new RegExp(`NATS .*127\\.0\\.0\\.1:${closedNats}.*nats-server -a 127\\.0\\.0\\.1 -p ${closedNats}`),
    );
    expect(lines[2]).toMatch(/Chromium .*\/nonexistent\/chromium.*apt-get install -y chromium/);

    // This machine has all three (the suite needs them): the check passes and says so.
    const present = spawnSync(process.execPath, [CHECK], { encoding: 'utf8' });
    expect([present.status, present.stdout.trim()]).toEqual([0, 'prerequisites: PostgreSQL, NATS and Chromium found']);
  });

  it('npm start: no route-mapping lines at info, JSON lines when not on a terminal, then address, panel and sign-in', async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
    const dataDir = mkdtempSync(join(tmpdir(), 'tg-first-'));
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ADMIN_PASSWORD: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!out.includes('Sign in as') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(out).toContain('transfergate is ready');
      expect(out).toContain(`Panel          http://127.0.0.1:${port}/admin/`);
      expect(out).toMatch(/Sign in as {5}admin \/ \S{12,} \(generated, shown once\)/);
      // Nest's start-up chatter (a line per module, controller and route) is debug now.
      expect(out).not.toMatch(/Mapped \{/);
      expect(out).not.toMatch(/RouterExplorer|RoutesResolver|InstanceLoader/);
      // Not a terminal: what the logger writes stays JSON for collectors.
      const logLines = out.split('\n').filter((line) => line.startsWith('{'));
      expect(logLines.length).toBeGreaterThan(0);
      for (const line of logLines) expect(() => JSON.parse(line)).not.toThrow();
      // The banner is the last thing printed.
      expect(out.trimEnd().split('\n').at(-1)).toMatch(/Sign in as/);
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
