import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { KEYS, VALID_IBAN, conformanceBootstrap, h2hBody } from '../gateway/conformance-fixture.js';
import { issueBootstrap, postJson, startTestApp } from '../support/test-app.js';
import { panelClient } from './panel-client.js';

/**
 * The app the panel transaction suites share: PostgreSQL with the conformance and issue bootstraps,
 * an admin, an auditor (auditor1) and an operator (clerk1) signed in, the ids the tests act on, and
 * the helpers that create transactions through the gateway and the panel. Each suite starts its own
 * and stops it in its afterAll.
 */
export async function startTransactionsApp() {
  const app = await startTestApp('postgres');
  await app.provision(conformanceBootstrap());
  await app.provision(issueBootstrap()); // admin / S3cure-pass!
  for (const [username, role] of [
    ['auditor1', 'auditor'],
    ['clerk1', 'operator'],
  ] as const) {
    await app.commands.execute(
      new ConfigureOperatorCommand({ username, password: 'Initial-pass-1', role, active: true }, { source: 'test' }),
    );
  }
  await app.settle();
  const client = panelClient(app);
  const admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  const auditor = (await client.login('auditor1', 'Initial-pass-1')).accessToken;
  const clerk = (await client.login('clerk1', 'Initial-pass-1')).accessToken;
  const adminId = (await client.get('/api/auth/me', admin)).body.id;
  const clerkId = (await client.get('/api/auth/me', clerk)).body.id;
  const merchants = await app.db.query<{ merchant_id: string; name: string }>(
    'select merchant_id, name from rm_merchants',
  );
  const merchantId = merchants.rows.find((m) => m.name === 'Conformance')!.merchant_id;
  const brokeMerchantId = merchants.rows.find((m) => m.name === 'Broke')!.merchant_id;
  const providers = await app.db.query<{ provider_id: string; name: string }>(
    `select provider_id, record->>'name' as name from rm_providers`,
  );
  const h2hProviderId = providers.rows.find((p) => p.name === 'conf-h2h')!.provider_id;
  const brokeProviderId = providers.rows.find((p) => p.name === 'conf-broke')!.provider_id;
  let n = 0;
  const ext = (prefix: string) => `${prefix}-${++n}-${Date.now()}`;

  /** A deposit through the gateway's H2H API; answers its internal UUID. */
  async function gatewayDeposit(amount: number, externalId = ext('GD')): Promise<string> {
    const created = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEYS.h2h, externalId, amount));
    expect(created.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
    );
    expect(status.status).toBe(201);
    return String(status.body.uuid);
  }

  /** A withdrawal through the gateway's H2H API; answers its integer number. */
  async function gatewayWithdrawal(amount: number, externalId = ext('GW')): Promise<number> {
    const created = await postJson(
      `${app.baseUrl}/withdrawal/bank`,
      h2hBody(KEYS.h2h, externalId, amount, { iban: VALID_IBAN }),
    );
    expect(created.status).toBe(201);
    return Number(created.body.id);
  }

  async function panelCreate(
    kind: 'deposit' | 'withdrawal',
    fields: Record<string, unknown> = {},
    token = admin,
  ): Promise<Record<string, unknown>> {
    const res = await client.post(
      `/panel/${kind}/create`,
      {
        merchantId,
        providerId: h2hProviderId,
        amount: 100,
        customerName: 'Panel Müşteri',
        ...(kind === 'withdrawal' ? { iban: VALID_IBAN } : {}),
        ...fields,
      },
      token,
    );
    expect(res.status).toBe(201);
    return res.body;
  }

  const eventCount = async (transactionId: string, type: string) =>
    Number(
      (
        await app.db.query<{ n: string }>(
          `select count(*)::text n from es_events where stream_id = 'txn-'||$1 and type = $2`,
          [transactionId, type],
        )
      ).rows[0]!.n,
    );

  return {
    app,
    client,
    admin,
    adminId,
    auditor,
    clerk,
    clerkId,
    merchantId,
    brokeMerchantId,
    h2hProviderId,
    brokeProviderId,
    ext,
    gatewayDeposit,
    gatewayWithdrawal,
    panelCreate,
    eventCount,
  };
}
export type TransactionsApp = Awaited<ReturnType<typeof startTransactionsApp>>;
