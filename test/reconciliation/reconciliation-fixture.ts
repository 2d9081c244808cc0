import { ConfigureOperatorCommand, ExpireTransactionCommand } from '@transfergate/contracts';
import { h2hBody } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { issueBootstrap, postJson, startTestApp, type Engine, type TestApp } from '../support/test-app.js';
import type { SyntheticLine } from './statement-files.js';

/**
 * The app reconciliation.spec.ts starts once per engine and its scenarios (./scenarios/) share: an admin
 * and an auditor signed in, the bank account, six deposits from the gateway (one expired) and the
 * synthetic statement lines that pay them (exactly, less, by a third party, by name only, twice, late,
 * automatically), and the helpers that upload files and read the queue.
 */

export const KEY = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };
export const DAY = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
export const nowTime = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(11, 16);

export interface Deposit {
  uuid: string;
  number: number;
}

/** Starts the app in the calling describe's beforeAll and stops it in its afterAll; the getter is for the tests. */
export function useReconciliationFixture(engine: Engine) {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let auditor: string;
  let accountId: string;
  let n = 0;
  const deps = {} as Record<'exact' | 'less' | 'third' | 'named' | 'late' | 'auto', Deposit>;
  const lines = {} as Record<
    'exact' | 'less' | 'third' | 'named' | 'unknown' | 'fee' | 'twice' | 'late' | 'auto',
    SyntheticLine
  >;

  async function deposit(amount: number, fullname = 'Ayşe Yılmaz'): Promise<Deposit> {
    const id = `R-${engine}-${++n}`;
    const res = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEY, id, amount, { fullname }));
    expect(res.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${id}`,
      {},
      { 'x-api-key': KEY.apiKey, 'x-api-secret': KEY.apiSecret },
    );
    return { uuid: String(status.body.uuid), number: Number(status.body.id) };
  }
  async function upload(content: string | Buffer, query: string, token = admin, requestId?: string) {
    const res = await fetch(`${app.baseUrl}/panel/reconciliation/accounts/${accountId}/statements?${query}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        authorization: `Bearer ${token}`,
        ...(requestId ? { 'x-request-id': requestId } : {}),
      },
      body: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  async function queue(extra = '') {
    const res = await client.get(
      `/panel/reconciliation/lines?bankAccountId=${accountId}&direction=credit&limit=200${extra}`,
      admin,
    );
    expect(res.status).toBe(200);
    return res.body.items as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  async function lineByRef(ref: string) {
    const all = await client.get(`/panel/reconciliation/lines?bankAccountId=${accountId}&limit=200`, admin);
    const found = all.body.items.find((l: { bankReference?: string }) => l.bankReference === ref);
    expect(found).toBeDefined();
    return found;
  }
  async function stateOf(d: Deposit) {
    const { rows } = await app.db.query<{ state: string; amount: string; original: string }>(
      `select state, amount_kurus::text as amount, original_amount_kurus::text as original from rm_transactions where transaction_id = $1`,
      [d.uuid],
    );
    return rows[0]!;
  }
  const eventCount = async () =>
    Number((await app.db.query<{ n: string }>('select count(*)::text as n from es_events')).rows[0]!.n);

  beforeAll(async () => {
    app = await startTestApp(engine);
    await app.provision(issueBootstrap());
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'audit', password: 'Initial-pass-1', role: 'auditor', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    auditor = (await client.login('audit', 'Initial-pass-1')).accessToken;
    const accounts = await client.get('/panel/bank-accounts', admin);
    accountId = (accounts.body.items ?? accounts.body)[0].id;

    deps.exact = await deposit(150);
    deps.less = await deposit(200);
    deps.third = await deposit(300);
    deps.named = await deposit(777.77, 'Mehmet Ali Kaya');
    deps.late = await deposit(400);
    deps.auto = await deposit(99.99, 'Zeynep Çelik');
    await app.commands.execute(
      new ExpireTransactionCommand({ transactionId: deps.late.uuid, now: new Date(Date.now() + 31 * 60_000) }),
    );
    const t = nowTime();
    Object.assign(lines, {
      exact: {
        ref: 'B1',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 15000n,
        description: `Ödeme Tğ-${deps.exact.number} teşekkürler`,
        name: 'YILMAZ AYŞE',
      },
      less: {
        ref: 'B2',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 19999n,
        description: `t g ${deps.less.number}`,
        name: 'Ayşe Yılmaz',
      },
      third: {
        ref: 'B3',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 30000n,
        description: `TG${deps.third.number}`,
        name: 'Hasan Demir',
      },
      named: {
        ref: 'B4',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 77777n,
        description: 'havale',
        name: 'kaya mehmet ali',
      },
      unknown: {
        ref: 'B5',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 123456n,
        description: 'EFT',
        name: 'Bilinmeyen Kişi',
      },
      fee: { ref: 'B6', day: DAY, time: t, direction: 'debit', amountKurus: 550n, description: 'EFT masrafı' },
      twice: {
        ref: 'B7',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 15000n,
        description: `TG ${deps.exact.number}`,
        name: 'Ayşe Yılmaz',
      },
      late: {
        ref: 'B8',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 40000n,
        description: `tg-${deps.late.number}`,
        name: 'Ayşe Yılmaz',
      },
      auto: {
        ref: 'B9',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 9999n,
        description: `TG-${deps.auto.number}`,
        name: 'ZEYNEP ÇELİK',
      },
    } satisfies Record<string, SyntheticLine>);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const first = () =>
    (['exact', 'less', 'third', 'named', 'unknown', 'fee', 'twice', 'late'] as const).map((k) => lines[k]);

  return () => ({
    engine,
    app,
    client,
    admin,
    auditor,
    accountId,
    deps,
    lines,
    deposit,
    upload,
    queue,
    lineByRef,
    stateOf,
    eventCount,
    first,
  });
}

export type ReconciliationFixture = ReturnType<ReturnType<typeof useReconciliationFixture>>;
