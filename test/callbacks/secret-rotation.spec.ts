import { createHmac } from 'node:crypto';
import { postJson, type TestApp } from '../support/test-app.js';
import { CB_KEYS, md5, sha256, type ReceivedCallback } from './callback-fixture.js';
import { startCallbacksApp, type CallbacksApp } from './callbacks-app.js';

type Key = { apiKey: string; apiSecret: string };
type Form = 'merchant' | 'h2h' | 'infra' | 'md5';
const FORMS: Form[] = ['merchant', 'h2h', 'infra', 'md5'];
const HOUR_MS = 3_600_000;

/** What each of the four API forms answers a request signed with the given secrets. */
const ACCEPTED = { merchant: 200, merchantHash: 200, h2h: 201, infrastructure: 200, status: 201 };
const REFUSED = { merchant: 401, merchantHash: 401, h2h: 401, infrastructure: 401, status: 401 };

/** Independent Standard Webhooks check: which of `secrets` sign `record` (one entry per signature in the header). */
function signers(record: ReceivedCallback, secrets: Record<string, string>): string[] {
  const id = String(record.headers['webhook-id']);
  const timestamp = String(record.headers['webhook-timestamp']);
  const signed = `${id}.${timestamp}.${record.raw}`;
  return String(record.headers['webhook-signature'])
    .split(' ')
    .map((signature) => {
      const name = Object.entries(secrets).find(
        ([, secret]) => signature === `v1,${createHmac('sha256', secret).update(signed).digest('base64')}`,
      )?.[0];
      return name ?? `unverified(${signature.slice(0, 6)})`;
    });
}

/**
 * Rotating a provider's API secret with an overlap window, end to end over real HTTP: the panel
 * rotates, the gateway accepts the old and the new secret on all four API forms while the window is
 * open and only the new one after it (ended early or run out); callbacks carry a Standard Webhooks
 * signature per secret in force, and the MD5 body is signed with the new secret.
 */
describe('secret rotation with an overlap window (postgres)', () => {
  let app: TestApp;
  let cb: CallbacksApp;
  const providerIds = {} as Record<Form, string>;
  const current: Record<Form, Key> = { ...CB_KEYS };
  let statusId = '';
  let n = 0;
  const ext = (prefix: string) => `${prefix}-${++n}-${Date.now()}`;

  beforeAll(async () => {
    cb = await startCallbacksApp('postgres');
    app = cb.app;
    const list = await cb.client.get('/panel/providers', cb.admin);
    for (const form of FORMS) {
      providerIds[form] = list.body.items.find((p: { name: string }) => p.name === `cb-${form}`).id;
    }
    statusId = ext('ROT-S');
    expect((await h2hDeposit(CB_KEYS.h2h, statusId)).status).toBe(201);
  });
  afterAll(async () => {
    await app?.stop();
    await cb?.receiver.close();
  });

  const h2hDeposit = (key: Key, id: string) =>
    postJson(`${app.baseUrl}/deposit/bank`, {
      apikey: key.apiKey,
      transaction_id: id,
      amount: 120,
      fullname: 'Ayşe Yılmaz',
      hash: sha256(`${key.apiKey}${id}${key.apiSecret}120`),
    });

  const infraDeposit = (key: Key, id: string) => {
    const guid = `3f2b8c1e-5d4a-4c3b-9a8f-${sha256(id).slice(0, 12)}`;
    return postJson(`${app.baseUrl}/deposits/deposit-request`, {
      ApiKey: key.apiKey,
      OperationGuid: guid,
      RequestId: id,
      SecurityKey: sha256(`${key.apiKey}${key.apiSecret}${guid}`),
      Amount: 130,
      CustomerFullName: 'Mehmet Demir',
    });
  };

  const merchantDeposit = (key: Key, id: string, withHash: boolean) =>
    postJson(
      `${app.baseUrl}/deposit`,
      {
        transactionId: id,
        amount: 140,
        name: 'Zeynep',
        surname: 'Kaya',
        ...(withHash ? { hash: sha256(`${key.apiKey}${id}${key.apiSecret}140`) } : {}),
      },
      cb.creds(key),
    );

  /** One request per API form, each signed with the secret in `keys` (the key itself is the provider's). */
  async function statusesWith(keys: Record<Form, Key>) {
    return {
      merchant: (await merchantDeposit(keys.merchant, ext('ROT-M'), false)).status,
      merchantHash: (await merchantDeposit(keys.merchant, ext('ROT-MH'), true)).status,
      h2h: (await h2hDeposit(keys.h2h, ext('ROT-H'))).status,
      infrastructure: (await infraDeposit(keys.infra, ext('ROT-I'))).status,
      status: (await postJson(`${app.baseUrl}/status/${statusId}`, {}, cb.creds(keys.h2h))).status,
    };
  }

  async function rotateAll(body: Record<string, unknown>) {
    const before = { ...current };
    const untils: Record<Form, string | null> = {} as Record<Form, string | null>;
    for (const form of FORMS) {
      const rotated = await cb.client.post(
        '/panel/providers/rotate-secret',
        { id: providerIds[form], ...body },
        cb.admin,
      );
      expect(rotated.status).toBe(201);
      expect(rotated.body.apiSecret).toMatch(/^sk_/);
      expect(rotated.body.record.previousSecretValidUntil).toBe(rotated.body.previousSecretValidUntil);
      current[form] = { apiKey: before[form].apiKey, apiSecret: rotated.body.apiSecret };
      untils[form] = rotated.body.previousSecretValidUntil;
    }
    return { before, untils };
  }

  /** A deposit approved through the panel on each callback format, and the callback each receives. */
  async function callbacksNow(): Promise<Record<Form, ReceivedCallback>> {
    const received = {} as Record<Form, ReceivedCallback>;
    const ids: Record<Form, string> = {
      merchant: ext('ROT-CBM'),
      h2h: ext('ROT-CBH'),
      infra: ext('ROT-CBI'),
      md5: ext('ROT-CB5'),
    };
    expect((await merchantDeposit(current.merchant, ids.merchant, false)).status).toBe(200);
    expect((await h2hDeposit(current.h2h, ids.h2h)).status).toBe(201);
    expect((await infraDeposit(current.infra, ids.infra)).status).toBe(200);
    expect((await h2hDeposit(current.md5, ids.md5)).status).toBe(201);
    for (const form of FORMS) {
      await cb.decide('deposit', await cb.numberOf(current[form], ids[form]), 'approve');
      received[form] = await cb.callbackFor(`/cb-${form}/deposit`, ids[form]);
    }
    return received;
  }

  it('with the default 24 h window both secrets pass on all four API forms; callbacks carry both signatures', async () => {
    const rotatedAt = Date.now();
    const { before, untils } = await rotateAll({});
    for (const form of FORMS) {
      const untilMs = Date.parse(untils[form]!);
      expect(untilMs - rotatedAt).toBeGreaterThan(24 * HOUR_MS - 60_000);
      expect(untilMs - rotatedAt).toBeLessThanOrEqual(24 * HOUR_MS + 60_000);
    }
    expect(await statusesWith(before)).toEqual(ACCEPTED);
    expect(await statusesWith(current)).toEqual(ACCEPTED);
    const wrong = Object.fromEntries(
      FORMS.map((form) => [form, { apiKey: current[form].apiKey, apiSecret: 'sk_neither_secret' }]),
    ) as Record<Form, Key>;
    expect(await statusesWith(wrong)).toEqual(REFUSED);

    const callbacks = await callbacksNow();
    for (const form of FORMS) {
      expect({
        form,
        signers: signers(callbacks[form], { new: current[form].apiSecret, old: before[form].apiSecret }),
      }).toEqual({ form, signers: ['new', 'old'] });
    }
    // The legacy MD5 body carries one signature: made with the new secret.
    const md5Body = callbacks.md5.body;
    expect(md5Body.signature).toBe(
      md5(`${md5Body.transactionId}confirmed${md5Body.amount}deposit${current.md5.apiSecret}`),
    );
  });

  it('ended early: from the answer on only the new secret passes and callbacks carry one signature', async () => {
    const before = { ...CB_KEYS };
    for (const form of FORMS) {
      const ended = await cb.client.post('/panel/providers/end-secret-overlap', { id: providerIds[form] }, cb.admin);
      expect(ended).toMatchObject({ status: 201, body: { changed: true, record: { previousSecretValidUntil: null } } });
    }
    expect(await statusesWith(before)).toEqual(REFUSED);
    expect(await statusesWith(current)).toEqual(ACCEPTED);
    const again = await cb.client.post('/panel/providers/end-secret-overlap', { id: providerIds.h2h }, cb.admin);
    expect(again).toMatchObject({ status: 201, body: { changed: false } });

    const callbacks = await callbacksNow();
    for (const form of FORMS) {
      expect({ form, signers: signers(callbacks[form], { new: current[form].apiSecret }) }).toEqual({
        form,
        signers: ['new'],
      });
    }
  });

  it('a window that runs out: the old secret passes until its end and not after, without any event', async () => {
    const { before, untils } = await rotateAll({ overlapSeconds: 2 });
    expect(await statusesWith(before)).toEqual(ACCEPTED);
    const lastUntilMs = Math.max(...FORMS.map((form) => Date.parse(untils[form]!)));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastUntilMs - Date.now()) + 50));
    expect(await statusesWith(before)).toEqual(REFUSED);
    expect(await statusesWith(current)).toEqual(ACCEPTED);
    const callbacks = await callbacksNow();
    for (const form of FORMS) {
      expect(signers(callbacks[form], { new: current[form].apiSecret, old: before[form].apiSecret })).toEqual(['new']);
    }
    const record = await cb.client.get(`/panel/providers/${providerIds.h2h}`, cb.admin);
    expect(record.body.previousSecretValidUntil).toBeNull();
  });

  it('refuses an overlap out of 0..7 days; the audit log shows the rotation without any secret', async () => {
    for (const overlapSeconds of [-1, 7 * 86_400 + 1, 1.5, '60']) {
      const refused = await cb.client.post(
        '/panel/providers/rotate-secret',
        { id: providerIds.h2h, overlapSeconds },
        cb.admin,
      );
      expect({ overlapSeconds, status: refused.status, code: refused.body.errorCode }).toEqual({
        overlapSeconds,
        status: 400,
        code: 'validation_failed',
      });
    }
    const audit = await cb.client.get('/panel/audit?type=ProviderConfigured&limit=50', cb.admin);
    expect(audit.status).toBe(200);
    const text = JSON.stringify(audit.body);
    expect(text).toContain('previousApiSecretUntil');
    for (const form of FORMS) expect(text).not.toContain(current[form].apiSecret);
    expect(text).not.toMatch(/"previousApiSecretSealed":"(?!\[redacted\])/);
  });
});
