import { parseBootstrap } from '@transfergate/all-in-one';
import { VALID_IBAN, h2hBody } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';

/** H2H providers on the webhook test infrastructures. */
export const WH_KEYS = {
  local: { apiKey: 'ak_wh_local_01', apiSecret: 'sk_wh_local_01' },
  local2: { apiKey: 'ak_wh_local_02', apiSecret: 'sk_wh_local_02' },
  remote: { apiKey: 'ak_wh_remote_1', apiSecret: 'sk_wh_remote_1' },
  closed: { apiKey: 'ak_wh_closed_1', apiSecret: 'sk_wh_closed_1' },
};
export type Key = (typeof WH_KEYS)[keyof typeof WH_KEYS];

const infra = (slug: string, webhookAllowedIps: string[]) => ({
  name: `Webhooks ${slug}`,
  slug,
  apiForm: 'h2h',
  callbackFormat: 'h2h',
  callback_deposit: `http://127.0.0.1:9999/${slug}/deposit`,
  callback_withdrawal: `http://127.0.0.1:9999/${slug}/withdrawal`,
  webhookAllowedIps,
});

/**
 * wh-local takes webhooks from loopback, wh-remote only from 10.1.2.3 (so loopback is refused),
 * wh-closed has no allow-list (refused from everywhere). wh-local has two providers, so one external
 * id can name two of its transactions.
 */
export function webhookBootstrap() {
  return parseBootstrap(
    {
      infrastructures: [
        infra('wh-local', ['127.0.0.1/32']),
        infra('wh-remote', ['10.1.2.3/32']),
        infra('wh-closed', []),
      ],
      merchants: [
        {
          name: 'Webhook Merchant',
          minAmount: 10,
          maxAmount: 1000000,
          overdraftLimit: 10000000,
          providers: [
            { name: 'wh-local-h2h', infrastructure: 'wh-local', ...WH_KEYS.local },
            { name: 'wh-local-h2h-2', infrastructure: 'wh-local', ...WH_KEYS.local2 },
            { name: 'wh-remote-h2h', infrastructure: 'wh-remote', ...WH_KEYS.remote },
            { name: 'wh-closed-h2h', infrastructure: 'wh-closed', ...WH_KEYS.closed },
          ],
        },
      ],
      bankAccounts: [
        {
          bank: 'Garanti BBVA',
          iban: 'TR930006200000000006295317',
          holderName: 'Transfer Ltd',
          minAmount: 1,
          maxAmount: 500000,
          dailyLimit: 100000000,
        },
      ],
    },
    'webhooks',
  );
}

export interface Created {
  externalId: string;
  number: number;
  uuid: string;
}

let counter = 0;
export const ext = (prefix: string) => `${prefix}-${++counter}-${Date.now()}`;

/** Gateway calls for one app: create transactions through the H2H API, read their status. */
export function gatewayOf(app: TestApp) {
  const status = async (key: Key, externalId: string) => {
    const res = await postJson(
      `${app.baseUrl}/status/${encodeURIComponent(externalId)}`,
      {},
      { 'x-api-key': key.apiKey, 'x-api-secret': key.apiSecret },
    );
    if (res.status !== 201) throw new Error(`status ${externalId}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number; uuid: string; status: string; type: string };
  };
  const created = async (key: Key, externalId: string): Promise<Created> => {
    const found = await status(key, externalId);
    return { externalId, number: found.id, uuid: found.uuid };
  };
  return {
    status,
    async deposit(key: Key, externalId = ext('WD'), amount = 100): Promise<Created> {
      const res = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(key, externalId, amount));
      if (res.status !== 201) throw new Error(`deposit ${externalId}: ${res.status} ${JSON.stringify(res.body)}`);
      return created(key, externalId);
    },
    async withdrawal(key: Key, externalId = ext('WW'), amount = 50): Promise<Created> {
      const res = await postJson(
        `${app.baseUrl}/withdrawal/bank`,
        h2hBody(key, externalId, amount, { iban: VALID_IBAN }),
      );
      if (res.status !== 201) throw new Error(`withdrawal ${externalId}: ${res.status} ${JSON.stringify(res.body)}`);
      return created(key, externalId);
    },
  };
}

/** POST a webhook: `path` is e.g. `deposit/callback/wh-local` (an /api prefix may be included). */
export function hookOf(app: TestApp) {
  return (path: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(`${app.baseUrl}/${path.replace(/^\//, '')}`, body, headers);
}

export interface LogRow {
  id: string;
  slug: string;
  kind: string;
  path: string;
  source_ip: string;
  headers: Record<string, string>;
  body: unknown;
  raw_text: string | null;
  outcome: string;
  reason: string | null;
  error_code: string | null;
  http_status: number | null;
  infrastructure_slug: string | null;
  transaction_id: string | null;
  status_value: string | null;
}

/** The newest wh_log rows first; waits briefly for rows logged after the answer (parser refusals). */
export async function logRows(app: TestApp, where: string, params: unknown[] = [], atLeast = 1): Promise<LogRow[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { rows } = await app.db.query<LogRow>(`select * from wh_log where ${where} order by id desc`, params);
    if (rows.length >= atLeast || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function eventCount(app: TestApp, transactionId: string, type: string): Promise<number> {
  const { rows } = await app.db.query<{ n: string }>(
    `select count(*)::text n from es_events where stream_id = 'txn-'||$1 and type = $2`,
    [transactionId, type],
  );
  return Number(rows[0]!.n);
}

/**
 * The app most webhook suites share: PostgreSQL, the issue's bootstrap (admin / S3cure-pass!,
 * infrastructure acme) and the webhook infrastructures, with the alias table
 * `eqopay=wh-local, wh-remote=wh-local` ("wh-remote" as an alias must not shadow the real wh-remote).
 * Each suite starts its own and stops it in its afterAll.
 */
export async function startWebhookApp() {
  const previous = process.env.WEBHOOK_ALIASES;
  let app: TestApp;
  process.env.WEBHOOK_ALIASES = 'eqopay=wh-local, wh-remote=wh-local';
  try {
    app = await startTestApp('postgres');
  } finally {
    if (previous === undefined) delete process.env.WEBHOOK_ALIASES;
    else process.env.WEBHOOK_ALIASES = previous;
  }
  await app.provision(issueBootstrap());
  await app.provision(webhookBootstrap());
  const gateway = gatewayOf(app);
  const client = panelClient(app);
  return {
    app,
    gateway,
    hook: hookOf(app),
    client,
    admin: (await client.login('admin', 'S3cure-pass!')).accessToken,
    /** Created through the gateway and projected, so the webhook can find it. */
    async deposit(key: Key = WH_KEYS.local, externalId?: string): Promise<Created> {
      const created = await gateway.deposit(key, externalId);
      await app.settle();
      return created;
    },
    async withdrawal(key: Key = WH_KEYS.local, externalId?: string): Promise<Created> {
      const created = await gateway.withdrawal(key, externalId);
      await app.settle();
      return created;
    },
  };
}
export type WebhookApp = Awaited<ReturnType<typeof startWebhookApp>>;
