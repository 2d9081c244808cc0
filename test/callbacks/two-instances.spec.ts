import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp, type RunningApp, type RuntimeConfig } from '@transfergate/all-in-one';
import { TEST_DATABASE_URL } from '../support/postgres.js';
import { issueBootstrap, postJson, type TestApp } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import { CB_KEYS, CallbackReceiver, callbackBootstrap, h2hRequest } from './callback-fixture.js';

/**
 * Two complete dispatcher instances (two apps) on one PostgreSQL schema: the consumer runs in one
 * of them at a time (its lease), both workers claim due deliveries. With each worker allowed only
 * two requests in flight and a slow receiver, both must take part; the receiver must still see
 * every webhook-id exactly once.
 */
describe('two dispatcher instances on one PostgreSQL database', () => {
  const schema = `t_cb2_${randomBytes(5).toString('hex')}`;
  const secretKey = randomBytes(32);
  const dirs: string[] = [];
  const apps: (RunningApp & { baseUrl: string })[] = [];
  let receiver: CallbackReceiver;

  async function start(): Promise<RunningApp & { baseUrl: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'tg-cb2-'));
    dirs.push(dataDir);
    const config: RuntimeConfig = {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: TEST_DATABASE_URL,
      depositTtlMs: 30 * 60_000,
      secretKey,
      bodyLimitBytes: 256 * 1024,
      trustProxy: [],
      shutdownTimeoutMs: 10_000,
      logLevel: 'fatal',
      paymentPageUrl: 'http://127.0.0.1:0',
      testAuthEnabled: true,
      environment: 'production',
      rateLimitPerMinute: 0,
      // The receiver listens on loopback, which the egress policy refuses unless allow-listed.
      callbackAllowedTargets: ['127.0.0.1/32'],
      callbacks: { requestTimeoutMs: 2_000, leaseMs: 4_000, pollIntervalMs: 20, concurrency: 2 },
    };
    const running = await createApp(config, { schema });
    await running.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = running.app.getHttpServer().address() as AddressInfo;
    const app = { ...running, baseUrl: `http://127.0.0.1:${port}` };
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await receiver?.close();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('never both deliver the same attempt: 30 callbacks, each webhook-id received once', async () => {
    const first = await start();
    await first.provision(callbackBootstrap(receiver.base));
    await first.provision(issueBootstrap());
    // Its projection and consumer wait for the first instance's leases; its worker claims at once.
    await start();

    // A slow receiver keeps each worker's two slots busy, so the other worker's polls find work.
    for (let i = 0; i < 40; i++) {
      receiver.script('/cb-h2h/deposit', (_req, res) => void setTimeout(() => res.writeHead(200).end('ok'), 150));
    }
    const clients = apps.map((app) => panelClient(app as unknown as TestApp));
    const tokens = await Promise.all(clients.map(async (c) => (await c.login('admin', 'S3cure-pass!')).accessToken));
    const ids: string[] = [];
    const uuids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const externalId = `CB2-${i}-${Date.now()}`;
      const app = apps[i % 2]!;
      expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hRequest(CB_KEYS.h2h, externalId, 100 + i))).status).toBe(
        201,
      );
      const status = await postJson(
        `${app.baseUrl}/status/${externalId}`,
        {},
        { 'x-api-key': CB_KEYS.h2h.apiKey, 'x-api-secret': CB_KEYS.h2h.apiSecret },
      );
      ids.push(externalId);
      uuids.push(String(status.body.uuid));
    }
    // All 30 approved at once, half through each instance: 30 callbacks due together, more than one
    // worker's slots can take, so both workers' claims contend for the same rows.
    const approvals = await Promise.all(
      uuids.map((uuid, i) => clients[i % 2]!.post('/panel/deposit/approve', { id: uuid }, tokens[i % 2])),
    );
    expect(approvals.map((a) => [a.status, a.body.errorCode])).toEqual(uuids.map(() => [201, undefined]));

    await receiver.waitFor(
      () => new Set(receiver.at('/cb-h2h/deposit').map((r) => r.body.transactionId)).size >= 30,
      30_000,
      '30 distinct callbacks',
    );
    const delivered = async () =>
      Number(
        (await first.db.query<{ n: string }>(`select count(*)::text n from cb_deliveries where state = 'delivered'`))
          .rows[0]!.n,
      );
    const deadline = Date.now() + 10_000;
    while ((await delivered()) < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await delivered()).toBe(30);
    await new Promise((r) => setTimeout(r, 500));

    const perId = new Map<string, number>();
    for (const r of receiver.at('/cb-h2h/deposit')) {
      const id = String(r.headers['webhook-id']);
      perId.set(id, (perId.get(id) ?? 0) + 1);
    }
    expect(perId.size).toBe(30);
    expect([...perId.values()].every((count) => count === 1)).toBe(true);
    expect(new Set(receiver.at('/cb-h2h/deposit').map((r) => r.body.transactionId))).toEqual(new Set(ids));

    const attempts = await first.db.query<{ worker: string; n: string }>(
      `select worker, count(*)::text n from cb_attempts group by worker`,
    );
    expect(attempts.rows.reduce((sum, row) => sum + Number(row.n), 0)).toBe(30);
    // Both instances delivered some: the exclusivity above was actually contended.
    expect(attempts.rows).toHaveLength(2);
  });
});
