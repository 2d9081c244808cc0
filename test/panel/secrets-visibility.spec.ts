import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { panelClient } from './panel-client.js';
import {
  CB_KEYS,
  CallbackReceiver,
  callbackBootstrap,
  h2hRequest,
  infraRequest,
} from '../callbacks/callback-fixture.js';

/**
 * An Infrastructure SecurityKey seen is a credential (it covers no amount or account), so the panel
 * shows it, and the MD5 callback signature, only to roles holding `secrets.view` (admin): not in the
 * transaction history's request echo, not in the callback body, not in what the receiver answered.
 */
describe('signatures and hashes in the panel need secrets.view (PostgreSQL)', () => {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let operator: string;
  const PASSWORD = 'Secrets-pass-1';

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    app = await startTestApp('postgres', {
      callbacks: { retryScheduleMs: [0, 100, 100], requestTimeoutMs: 1_000, leaseMs: 3_000, pollIntervalMs: 50 },
    });
    await app.provision(callbackBootstrap(receiver.base));
    for (const [username, role] of [
      ['admin', 'admin'],
      ['operator1', 'operator'],
      ['finance1', 'finance'],
      ['auditor1', 'auditor'],
    ]) {
      await app.commands.execute(
        new ConfigureOperatorCommand(
          { username: username!, password: PASSWORD, role: role!, active: true },
          { source: 'test' },
        ),
      );
    }
    await app.settle();
    client = panelClient(app);
    admin = (await client.login('admin', PASSWORD)).accessToken;
    operator = (await client.login('operator1', PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

  async function deliveredTwice(externalId: string) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const list = await client.get(`/panel/callbacks?transactionId=${externalId}`, admin);
      const item = list.body.items?.[0];
      if (item?.state === 'delivered' && item.attemptCount >= 2) return item.id as string;
      if (Date.now() > deadline) throw new Error(`callback of ${externalId}: ${JSON.stringify(item)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const echoingFailure = (path: string) =>
    receiver.script(path, (request, response) => {
      // A receiver that echoes what it got in an error answer: the excerpt holds the signature too.
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(request.raw);
    });

  /** An Infrastructure deposit over GET (the SecurityKey in the query); its key and UUID. */
  async function infraDeposit(externalId: string, amount: number) {
    const request = infraRequest(externalId, amount, { CustomerFullName: 'Mehmet Demir' });
    const query = new URLSearchParams(Object.entries(request).map(([k, v]): [string, string] => [k, String(v)]));
    expect((await fetch(`${app.baseUrl}/deposits/deposit-request?${query}`)).status).toBe(200);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': CB_KEYS.infra.apiKey, 'x-api-secret': CB_KEYS.infra.apiSecret },
    );
    return { request, securityKey: String(request.SecurityKey), uuid: String(status.body.uuid) };
  }

  it('Infrastructure deposit (GET): the SecurityKey only for admin, in the history, the callback body and the excerpt', async () => {
    const externalId = `SEC-I-${Date.now()}`;
    const { request, securityKey, uuid } = await infraDeposit(externalId, 150);
    echoingFailure('/cb-infra/deposit');
    expect((await client.post('/panel/deposit/approve', { id: uuid }, admin)).status).toBe(201);
    const deliveryId = await deliveredTwice(externalId);

    const adminTx = await client.get(`/panel/transactions/${uuid}`, admin);
    const adminRequested = adminTx.body.history.find((e: { type: string }) => e.type === 'DepositRequested');
    expect(adminRequested.data.echo).toMatchObject({ SecurityKey: securityKey, OperationGuid: request.OperationGuid });
    const adminCallback = await client.get(`/panel/callbacks/${deliveryId}`, admin);
    expect(adminCallback.body.body.SecurityKey).toBe(securityKey);
    expect(adminCallback.body.attempts[0].responseExcerpt).toContain(securityKey);

    const opTx = await client.get(`/panel/transactions/${uuid}`, operator);
    expect(opTx.status).toBe(200);
    const opRequested = opTx.body.history.find((e: { type: string }) => e.type === 'DepositRequested');
    expect(opRequested.data.echo).toEqual({ ...adminRequested.data.echo, SecurityKey: '[redacted]' });
    expect(JSON.stringify(opTx.body).toLowerCase()).not.toContain(securityKey.toLowerCase());
    const opCallback = await client.get(`/panel/callbacks/${deliveryId}`, operator);
    expect(opCallback.status).toBe(200);
    expect(opCallback.body.body).toEqual({ ...adminCallback.body.body, SecurityKey: '[redacted]' });
    expect(opCallback.body.attempts[0].responseExcerpt).toContain('"SecurityKey":"[redacted]"');
    expect(JSON.stringify(opCallback.body).toLowerCase()).not.toContain(securityKey.toLowerCase());
    // A resend answers the delivery as well: redacted for the operator too.
    const resent = await client.post('/panel/callbacks/resend', { id: deliveryId }, operator);
    expect(resent.status).toBe(201);
    expect(JSON.stringify(resent.body).toLowerCase()).not.toContain(securityKey.toLowerCase());
  });

  it('MD5 callback: the signature only for admin', async () => {
    const externalId = `SEC-M-${Date.now()}`;
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hRequest(CB_KEYS.md5, externalId, 80))).status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': CB_KEYS.md5.apiKey, 'x-api-secret': CB_KEYS.md5.apiSecret },
    );
    echoingFailure('/cb-md5/deposit');
    expect((await client.post('/panel/deposit/approve', { id: status.body.uuid }, admin)).status).toBe(201);
    const deliveryId = await deliveredTwice(externalId);
    const adminCallback = await client.get(`/panel/callbacks/${deliveryId}`, admin);
    const signature = String(adminCallback.body.body.signature);
    expect(signature).toMatch(/^[0-9a-f]{32}$/);
    const opCallback = await client.get(`/panel/callbacks/${deliveryId}`, operator);
    expect(opCallback.body.body.signature).toBe('[redacted]');
    expect(JSON.stringify(opCallback.body)).not.toContain(signature);
  });

  it('a redirect target in a callback error: whole for admin, only its origin for an operator (list and detail)', async () => {
    const externalId = `SEC-R-${Date.now()}`;
    const { securityKey, uuid } = await infraDeposit(externalId, 170);
    // The receiver points elsewhere with the signature it got in the path and under a name the
    // body does not use: neither the secret field names nor a JSON echo would find it.
    const target = `https://elsewhere.example:8443/back/${securityKey}?sk=${securityKey}`;
    for (let i = 0; i < 6; i++) {
      receiver.script('/cb-infra/deposit', (_request, response) => {
        response.writeHead(302, { location: target });
        response.end();
      });
    }
    expect((await client.post('/panel/deposit/approve', { id: uuid }, admin)).status).toBe(201);
    const deadline = Date.now() + 15_000;
    let adminItem: { id: string; lastError: string | null } | undefined;
    while (!adminItem?.lastError) {
      if (Date.now() > deadline) throw new Error(`no failed attempt for ${externalId}`);
      await new Promise((r) => setTimeout(r, 50));
      adminItem = (await client.get(`/panel/callbacks?transactionId=${externalId}`, admin)).body.items?.[0];
    }
    expect(adminItem.lastError).toBe(`redirect 302 not followed (to ${target})`);

    const opList = await client.get(`/panel/callbacks?transactionId=${externalId}`, operator);
    expect(opList.status).toBe(200);
    expect(opList.body.items[0].lastError).toBe(
      'redirect 302 not followed (to https://elsewhere.example:8443/[redacted])',
    );
    expect(JSON.stringify(opList.body).toLowerCase()).not.toContain(securityKey.toLowerCase());
    const opDetail = await client.get(`/panel/callbacks/${adminItem.id}`, operator);
    expect(opDetail.status).toBe(200);
    expect(opDetail.body.attempts[0].error).toBe(
      'redirect 302 not followed (to https://elsewhere.example:8443/[redacted])',
    );
    expect(JSON.stringify(opDetail.body).toLowerCase()).not.toContain(securityKey.toLowerCase());
  });

  it('secrets.view belongs to admin only among the built-in roles', async () => {
    const config = await client.get('/api/config/permissions');
    const roles = Object.fromEntries(
      config.body.builtInRoles.map((r: { name: string; permissions: string[] }) => [r.name, r.permissions]),
    );
    expect(roles.admin).toContain('secrets.view');
    for (const role of ['operator', 'finance', 'auditor'])
      expect({ role, has: roles[role].includes('secrets.view') }).toEqual({ role, has: false });
  });
});
