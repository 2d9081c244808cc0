import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigureOperatorCommand } from '@transfergate/contracts';
import type { GlobalPosition } from '@transfergate/event-store';
import { issueBootstrap, postJson, startTestApp, type Engine, type TestApp } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import { CB_IBAN, CB_KEYS, CallbackReceiver, callbackBootstrap, h2hRequest } from '../callbacks/callback-fixture.js';

/** What the mixed workload left behind: enough to check a replay against it. */
export interface Workload {
  app: TestApp;
  receiver: CallbackReceiver;
  /** The app's DATA_DIR (PGlite keeps its database in DATA_DIR/pgdata). */
  dataDir: string;
  /** The "Callbacks" merchant (every decision of it is called back to the receiver). */
  merchantId: string;
  otherMerchantId: string;
  /** A moment between the two halves of the workload, the head position then, and the balances then. */
  midway: { at: string; position: GlobalPosition; balances: Map<string, string> };
  decisions: number;
}

const creds = (key: { apiKey: string; apiSecret: string }) => ({
  'x-api-key': key.apiKey,
  'x-api-secret': key.apiSecret,
});

/**
 * Deposits, withdrawals, approvals, rejections and amount changes through the real HTTP API of a
 * real app, callbacks delivered to a real local receiver; waits until the projection and the
 * callback log have caught up with every decision.
 */
export async function runMixedWorkload(engine: Engine): Promise<Workload> {
  const receiver = await new CallbackReceiver().start();
  const dataDir = mkdtempSync(join(tmpdir(), 'tg-replay-'));
  const app = await startTestApp(engine, {
    dataDir,
    callbacks: { retryScheduleMs: [0, 200, 200, 200], requestTimeoutMs: 300, leaseMs: 3_000, pollIntervalMs: 100 },
  });
  await app.provision(callbackBootstrap(receiver.base));
  await app.provision(issueBootstrap());
  await app.commands.execute(
    new ConfigureOperatorCommand(
      { username: 'auditor1', password: 'Initial-pass-1', role: 'auditor', active: true },
      { source: 'test' },
    ),
  );
  await app.settle();
  const client = panelClient(app);
  const admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  let n = 0;
  let decisions = 0;
  const ext = (prefix: string) => `${prefix}-${engine}-${++n}-${Date.now()}`;

  const act = async (path: string, body: Record<string, unknown>) => {
    const res = await client.post(path, body, admin);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    if (/approve|reject/.test(path)) decisions += 1;
    return res.body;
  };
  const deposit = async (key: { apiKey: string; apiSecret: string }, amount: number, fullname?: string) => {
    const id = ext('RD');
    const request = h2hRequest(key, id, amount);
    const created = await postJson(`${app.baseUrl}/deposit/bank`, fullname ? { ...request, fullname } : request);
    if (created.status !== 201) throw new Error(`deposit: ${created.status} ${JSON.stringify(created.body)}`);
    const status = await postJson(`${app.baseUrl}/status/${id}`, {}, creds(key));
    return String(status.body.uuid);
  };
  const withdrawal = async (amount: number) => {
    const id = ext('RW');
    const created = await postJson(`${app.baseUrl}/withdrawal/bank`, {
      ...h2hRequest(CB_KEYS.h2h, id, amount),
      iban: CB_IBAN,
    });
    if (created.status !== 201) throw new Error(`withdrawal: ${created.status} ${JSON.stringify(created.body)}`);
    const status = await postJson(`${app.baseUrl}/status/${id}`, {}, creds(CB_KEYS.h2h));
    return String(status.body.uuid);
  };

  // First half: deposits approved, rejected, changed; a withdrawal approved.
  for (const amount of [1_000, 250.5, 730])
    await act('/panel/deposit/approve', { id: await deposit(CB_KEYS.h2h, amount) });
  await act('/panel/deposit/reject', { id: await deposit(CB_KEYS.h2h, 99), reason: 'no payment seen' });
  const changed = await deposit(CB_KEYS.h2h, 400);
  await act('/panel/deposit/update-amount', { id: changed, amount: '380.75' });
  await act('/panel/deposit/approve', { id: changed });
  await act('/panel/withdrawal/approve', { id: await withdrawal(300) });
  await act('/panel/deposit/approve', { id: await deposit({ apiKey: 'ak_test_1', apiSecret: 'sk_test_1' }, 500) });
  await app.settle();
  const midwayBalances = await balances(app);
  const { rows: headRows } = await app.db.query<{ xid: string; seq: string; at: string }>(
    `select xid::text as xid, seq::text as seq, to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
     from es_events order by es_events.xid desc, es_events.seq desc limit 1`,
  );
  const midway = {
    at: headRows[0]!.at,
    position: { commitXid: headRows[0]!.xid, seq: headRows[0]!.seq },
    balances: midwayBalances,
  };
  // The next events must be recorded strictly after `midway.at`.
  await new Promise((resolve) => setTimeout(resolve, 20));

  // Second half: withdrawals rejected, changed and approved, one left pending; deposits left open.
  await act('/panel/withdrawal/reject', { id: await withdrawal(120), reason: 'IBAN holder mismatch' });
  const wChanged = await withdrawal(200);
  await act('/panel/withdrawal/update-amount', { id: wChanged, amount: '175.25' });
  await act('/panel/withdrawal/approve', { id: wChanged });
  await withdrawal(50);
  // Quotes and backslashes (the JSON of the customer holds backslashes then), a literal \N and \.:
  // the replay's bulk load (COPY on PostgreSQL) must store them as the projector's INSERT does.
  await deposit(CB_KEYS.h2h, 60, 'Zeynep "Zee" O\\Neil \\N \\. Şükrü');
  await act('/panel/deposit/approve', { id: await deposit(CB_KEYS.h2h, 2_000) });
  await app.settle();

  const { rows: merchants } = await app.db.query<{ merchant_id: string; name: string }>(
    `select merchant_id, name from rm_merchants`,
  );
  const merchantId = merchants.find((m) => m.name === 'Callbacks')!.merchant_id;
  const otherMerchantId = merchants.find((m) => m.name === 'Acme')!.merchant_id;
  // Every decision of the Callbacks merchant is delivered; every decision has its record.
  await receiver.waitFor(() => receiver.received.length >= decisions - 1, 20_000, 'the workload callbacks');
  for (let i = 0; i < 200; i++) {
    const { rows } = await app.db.query<{ n: string }>(`select count(*)::text as n from cb_deliveries`);
    if (Number(rows[0]!.n) >= decisions) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { app, receiver, dataDir, merchantId, otherMerchantId, midway, decisions };
}

/** Live balances per merchant account: posted − pending debits, as the replay reports "available". */
export async function balances(app: TestApp): Promise<Map<string, string>> {
  const { rows } = await app.db.query<{ account_id: string; available: string }>(
    `select account_id, (credits_posted_kurus - debits_posted_kurus - debits_pending_kurus)::text as available
     from rm_balances where account_id like 'merchant:%'`,
  );
  return new Map(rows.map((r) => [r.account_id.slice('merchant:'.length), r.available]));
}
