import { parseBootstrap } from '@transfergate/all-in-one';
import { type SqlDatabase } from '@transfergate/event-store';
import { WebhookDirectory } from '../../services/webhook-ingest/src/directory/webhook-directory.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { WH_KEYS, gatewayOf, hookOf, webhookBootstrap, type Created } from './webhook-fixture.js';

const NEW_KEY = { apiKey: 'ak_wh_local_03', apiSecret: 'sk_wh_local_03' };

/** wh-remote with this allow-list, and (`newProvider`) wh-local's merchant with one provider more. */
function changedDirectory(remoteAllowedIps: string[], newProvider = false) {
  return parseBootstrap(
    {
      infrastructures: [
        {
          name: 'Webhooks wh-remote',
          slug: 'wh-remote',
          apiForm: 'h2h',
          callbackFormat: 'h2h',
          callback_deposit: 'http://127.0.0.1:9999/wh-remote/deposit',
          callback_withdrawal: 'http://127.0.0.1:9999/wh-remote/withdrawal',
          webhookAllowedIps: remoteAllowedIps,
        },
      ],
      merchants: [
        {
          name: 'Webhook Merchant',
          minAmount: 10,
          maxAmount: 1000000,
          overdraftLimit: 10000000,
          providers: newProvider ? [{ name: 'wh-local-h2h-3', infrastructure: 'wh-local', ...NEW_KEY }] : [],
        },
      ],
    },
    'webhook-directory',
  );
}

/**
 * The webhook's infrastructures and provider ids are cached (WebhookDirectory): a change to either
 * must hold for the very next webhook, as it did when every webhook read them (PostgreSQL, real HTTP).
 */
describe('the webhook directory cache (PostgreSQL)', () => {
  let app: TestApp;
  let gateway: ReturnType<typeof gatewayOf>;
  let hook: ReturnType<typeof hookOf>;

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(webhookBootstrap());
    gateway = gatewayOf(app);
    hook = hookOf(app);
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function deposit(key: { apiKey: string; apiSecret: string }): Promise<Created> {
    const created = await gateway.deposit(key);
    await app.settle();
    return created;
  }

  it('reads each slug and the provider ids once, then answers from memory', async () => {
    let reads = 0;
    const counting: SqlDatabase = Object.create(app.db as object) as SqlDatabase;
    counting.query = ((text: string, params?: unknown[]) => (reads++, app.db.query(text, params))) as never;
    const directory = new WebhookDirectory(counting);
    const [local, again, missing] = await Promise.all([
      directory.infrastructureBySlug('wh-local'),
      directory.infrastructureBySlug('wh-local'),
      directory.infrastructureBySlug('no-such-slug'),
    ]);
    expect(local).toMatchObject({ slug: 'wh-local', webhookAllowedIps: ['127.0.0.1/32'] });
    expect(again).toEqual(local);
    expect(missing).toBeNull();
    const providers = await directory.providerIds();
    expect(providers).toHaveLength(4);
    await directory.infrastructureBySlug('wh-local');
    await directory.infrastructureBySlug('no-such-slug');
    await directory.providerIds();
    expect(reads).toBe(3);
    directory.forgetAll();
    await directory.infrastructureBySlug('wh-local');
    await directory.providerIds();
    expect(reads).toBe(5);
  });

  it('an allow-list change holds for the next webhook, both ways', async () => {
    const first = await deposit(WH_KEYS.remote);
    const refused = await hook('deposit/callback/wh-remote', { transactionId: first.externalId, status: 'approved' });
    expect(refused).toMatchObject({ status: 403, body: { errorCode: 'ip_not_allowed' } }); // wh-remote now cached

    await app.provision(changedDirectory(['10.1.2.3/32', '127.0.0.1/32']));
    const approved = await hook('deposit/callback/wh-remote', { transactionId: first.externalId, status: 'approved' });
    expect(approved).toMatchObject({ status: 201, body: { status: 'approved', uuid: first.uuid } });

    await app.provision(changedDirectory(['10.1.2.3/32']));
    const second = await deposit(WH_KEYS.remote);
    const refusedAgain = await hook('deposit/callback/wh-remote', {
      transactionId: second.externalId,
      status: 'approved',
    });
    expect(refusedAgain).toMatchObject({ status: 403, body: { errorCode: 'ip_not_allowed' } });
    expect((await gateway.status(WH_KEYS.remote, second.externalId)).status).toBe('awaiting_payment');
  });

  it("a provider added after the ids were cached: the next webhook finds its transaction by the merchant's id", async () => {
    const known = await deposit(WH_KEYS.local);
    const byExternal = await hook('deposit/callback/wh-local', { transactionId: known.externalId, status: 'ok' });
    expect(byExternal).toMatchObject({ status: 201, body: { uuid: known.uuid } }); // provider ids now cached

    await app.provision(changedDirectory(['10.1.2.3/32'], true));
    const added = await deposit(NEW_KEY);
    const found = await hook('deposit/callback/wh-local', { transactionId: added.externalId, status: 'ok' });
    expect(found).toMatchObject({ status: 201, body: { status: 'approved', uuid: added.uuid } });
  });
});
