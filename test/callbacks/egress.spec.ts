import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { BootstrapFileError, assertBootstrapCallbackTargets, parseBootstrap } from '@transfergate/all-in-one';
import { postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import { CB_KEYS, CallbackReceiver, callbackBootstrap, callbackBootstrapFile, h2hRequest } from './callback-fixture.js';

/**
 * The egress policy over callback URLs, over real HTTP: internal targets are refused when an
 * infrastructure is saved (panel and provisioning file) and again when a callback connects, after
 * DNS resolution (a name that resolves to loopback is refused, and recorded as failed with the
 * reason and no answer); CALLBACK_ALLOWED_TARGETS lets a deployment allow private targets.
 */
const BAD_URLS = [
  'http://127.0.0.1:5432/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:22/',
  'http://0x7f.1/cb',
  'http://2130706433/cb',
  'http://[::ffff:127.0.0.1]/cb',
  'http://10.0.0.8/cb',
  'http://192.168.1.10/cb',
  'http://100.64.0.1/cb',
  'http://[fd00:ec2::254]/cb',
  'http://[fe80::1]/cb',
  'http://0.0.0.0/cb',
  'https://user:secret@callbacks.example.com/cb',
];

const FAST_CALLBACKS = { retryScheduleMs: [0, 200, 200], requestTimeoutMs: 1_000, leaseMs: 3_000, pollIntervalMs: 50 };

async function startWithReceiver(receiver: CallbackReceiver, callbackAllowedTargets: string[]) {
  const app = await startTestApp('postgres', { callbackAllowedTargets, callbacks: FAST_CALLBACKS });
  // A host name: it passes the save-time check (names are not resolved then) and is judged when connecting.
  await app.provision(callbackBootstrap(receiver.base.replace('127.0.0.1', 'localhost')));
  await app.commands.execute(
    new ConfigureOperatorCommand(
      { username: 'admin', password: 'S3cure-pass!', role: 'admin', active: true },
      { source: 'test' },
    ),
  );
  await app.settle();
  const client = panelClient(app);
  const admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  return { app, client, admin };
}

/** An approved H2H deposit; its callback goes to the receiver by the name `localhost`. */
async function approvedDeposit(
  app: TestApp,
  client: ReturnType<typeof panelClient>,
  admin: string,
  externalId: string,
): Promise<void> {
  expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hRequest(CB_KEYS.h2h, externalId, 120))).status).toBe(201);
  const status = await postJson(
    `${app.baseUrl}/status/${externalId}`,
    {},
    { 'x-api-key': CB_KEYS.h2h.apiKey, 'x-api-secret': CB_KEYS.h2h.apiSecret },
  );
  const approved = await client.post('/panel/deposit/approve', { id: status.body.uuid }, admin);
  expect(approved.status).toBe(201);
}

async function finalDelivery(client: ReturnType<typeof panelClient>, admin: string, externalId: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = await client.get(`/panel/callbacks?transactionId=${externalId}`, admin);
    const item = list.body.items?.[0];
    if (item && item.state !== 'pending') return (await client.get(`/panel/callbacks/${item.id}`, admin)).body;
    if (Date.now() > deadline) throw new Error(`callback of ${externalId} still pending: ${JSON.stringify(item)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('callback egress policy (PostgreSQL)', () => {
  let receiver: CallbackReceiver;
  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  describe('without an allow-list', () => {
    let app: TestApp;
    let client: ReturnType<typeof panelClient>;
    let admin: string;
    beforeAll(async () => {
      ({ app, client, admin } = await startWithReceiver(receiver, []));
    });
    afterAll(async () => {
      await app?.stop();
    });

    it('refuses internal callback URLs when an infrastructure is saved in the panel (400)', async () => {
      for (const url of BAD_URLS) {
        for (const field of ['callback_deposit', 'callback_withdrawal']) {
          const saved = await client.post(
            '/panel/infrastructure/save',
            {
              name: 'Egress',
              slug: 'egress',
              apiForm: 'h2h',
              callbackFormat: 'h2h',
              callback_deposit: 'https://callbacks.example.com/dep',
              callback_withdrawal: 'https://callbacks.example.com/wd',
              [field]: url,
            },
            admin,
          );
          expect({ url, field, status: saved.status, code: saved.body.errorCode }).toEqual({
            url,
            field,
            status: 400,
            code: 'callback_url_refused',
          });
          expect(saved.body.message).toMatch(
            /loopback|private|link-local|carrier-grade|metadata|unspecified|unique local|user name or password/,
          );
        }
      }
      const ok = await client.post(
        '/panel/infrastructure/save',
        {
          name: 'Egress',
          slug: 'egress',
          apiForm: 'h2h',
          callbackFormat: 'h2h',
          callback_deposit: 'https://callbacks.example.com/dep',
          callback_withdrawal: 'https://93.184.215.14/wd',
        },
        admin,
      );
      expect(ok.status).toBe(201);
      // Nothing of the refused saves was written.
      const listed = await client.get('/panel/infrastructures', admin);
      const urls = JSON.stringify(listed.body);
      for (const url of BAD_URLS) expect(urls.includes(url)).toBe(false);
    });

    it('refuses them in a provisioning file before anything is written', async () => {
      const file = callbackBootstrapFile('http://127.0.0.1:5432');
      expect(() => assertBootstrapCallbackTargets(parseBootstrap(file, 'x.json'), 'x.json', [])).toThrow(
        BootstrapFileError,
      );
      expect(() => assertBootstrapCallbackTargets(parseBootstrap(file, 'x.json'), 'x.json', [])).toThrow(
        /infrastructures\.0\.callback_deposit \(cb-merchant\): callback URL http:\/\/127\.0\.0\.1:5432: 127\.0\.0\.1 is a loopback address/,
      );
      expect(() =>
        assertBootstrapCallbackTargets(parseBootstrap(file, 'x.json'), 'x.json', ['127.0.0.1/32']),
      ).not.toThrow();
      // The ledger refuses it too, whoever sends the command.
      await expect(app.provision(parseBootstrap(file, 'x.json'))).rejects.toMatchObject({
        errorCode: 'callback_url_refused',
        message: expect.stringContaining('callback_deposit refused: callback URL http://127.0.0.1:5432'),
      });
    });

    it('refuses a name that resolves to loopback when connecting: failed at once, the reason, no answer', async () => {
      const before = receiver.received.length;
      const externalId = `EG-${Date.now()}`;
      await approvedDeposit(app, client, admin, externalId);
      const delivery = await finalDelivery(client, admin, externalId);
      expect(delivery).toMatchObject({ state: 'failed', attemptCount: 1, lastStatusCode: null });
      expect(delivery.targetUrl).toContain('//localhost:');
      expect(delivery.attempts).toEqual([
        expect.objectContaining({
          outcome: 'not_sent',
          statusCode: null,
          responseExcerpt: null,
          error:
            'refused: localhost resolves to 127.0.0.1, a loopback address; callbacks go to public addresses only (CALLBACK_ALLOWED_TARGETS allows others)',
        }),
      ]);
      expect(delivery.lastError).toContain('refused: localhost resolves to 127.0.0.1');
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.received.length).toBe(before);
    });
  });

  describe('with CALLBACK_ALLOWED_TARGETS=127.0.0.1/32', () => {
    let app: TestApp;
    let client: ReturnType<typeof panelClient>;
    let admin: string;
    beforeAll(async () => {
      ({ app, client, admin } = await startWithReceiver(receiver, ['127.0.0.1/32']));
    });
    afterAll(async () => {
      await app?.stop();
    });

    it('saves a loopback URL and delivers to a name that resolves to it', async () => {
      const saved = await client.post(
        '/panel/infrastructure/save',
        {
          name: 'Local',
          slug: 'local',
          apiForm: 'h2h',
          callbackFormat: 'h2h',
          callback_deposit: `${receiver.base}/local/dep`,
          callback_withdrawal: `${receiver.base}/local/wd`,
        },
        admin,
      );
      expect(saved.status).toBe(201);
      const still = await client.post(
        '/panel/infrastructure/save',
        {
          name: 'Local',
          slug: 'local',
          callback_deposit: 'http://10.0.0.8/dep',
        },
        admin,
      );
      expect(still).toMatchObject({ status: 400, body: { errorCode: 'callback_url_refused' } });

      const externalId = `EGOK-${Date.now()}`;
      await approvedDeposit(app, client, admin, externalId);
      const delivery = await finalDelivery(client, admin, externalId);
      expect(delivery).toMatchObject({ state: 'delivered', lastStatusCode: 200 });
      expect(receiver.received.some((r) => r.body.transactionId === externalId)).toBe(true);
    });
  });
});
