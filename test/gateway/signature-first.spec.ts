import { randomUUID } from 'node:crypto';
import { postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, VALID_IBAN, conformanceBootstrap, h2hBody, sha256 } from './conformance-fixture.js';

/**
 * Signature forms check the signature before anything else about the key: a real key with a wrong
 * hash (disabled provider, caller outside its IP allow-list, key of another API form) is answered
 * exactly like a key that does not exist, so the answer never tells whether a key exists.
 */
describe('H2H and Infrastructure: the signature is checked first (PostgreSQL)', () => {
  let app: TestApp;
  let n = 0;
  const id = (prefix: string) => `${prefix}-${++n}-${Date.now()}`;
  const nobody = { apiKey: 'ak_nobody_0001', apiSecret: 'whatever-secret' };

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(conformanceBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('H2H: a wrong hash on a locked, disabled or other-form key answers like an unknown key', async () => {
    const wrongHash = (key: { apiKey: string }) => ({ ...h2hBody(KEYS.h2h, id('SF'), 100), apikey: key.apiKey });
    const unknown = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(nobody, id('SF'), 100));
    expect(unknown).toEqual({
      status: 401,
      body: {
        status: false,
        code: 401,
        message: 'hash does not match SHA256(apikey + transaction_id + secret + round(amount))',
        errorCode: 'invalid_signature',
      },
    });
    for (const key of [KEYS.ipLocked, KEYS.disabled, KEYS.merchant, KEYS.infra]) {
      const answer = await postJson(`${app.baseUrl}/deposit/bank`, wrongHash(key));
      expect({ key: key.apiKey, answer }).toEqual({ key: key.apiKey, answer: unknown });
      const withdrawal = await postJson(`${app.baseUrl}/withdrawal/bank`, { ...wrongHash(key), iban: VALID_IBAN });
      expect({ key: key.apiKey, withdrawal }).toEqual({ key: key.apiKey, withdrawal: unknown });
    }
    // With the right hash the key's own settings answer, as before.
    const locked = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEYS.ipLocked, id('SF'), 100));
    expect(locked).toMatchObject({ status: 403, body: { errorCode: 'ip_not_allowed' } });
    const disabled = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEYS.disabled, id('SF'), 100));
    expect(disabled).toMatchObject({ status: 403, body: { errorCode: 'provider_disabled' } });
    const otherForm = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEYS.merchant, id('SF'), 100));
    expect(otherForm).toMatchObject({ status: 403, body: { errorCode: 'form_not_enabled' } });
  });

  it('Infrastructure: a wrong SecurityKey on a key of another form or a locked key answers like an unknown key', async () => {
    const fields = (key: { apiKey: string; apiSecret: string }) => {
      const guid = randomUUID();
      return {
        ApiKey: key.apiKey,
        OperationGuid: guid,
        RequestId: id('SFI'),
        SecurityKey: sha256(`${key.apiKey}${key.apiSecret}${guid}`),
        Amount: 100,
        CustomerFullName: 'Ali Veli',
      };
    };
    const wrong = (key: { apiKey: string; apiSecret: string }) => ({ ...fields(key), SecurityKey: sha256('wrong') });
    const unknown = await postJson(`${app.baseUrl}/deposits/deposit-request`, fields(nobody));
    expect(unknown).toEqual({
      status: 401,
      body: {
        success: false,
        message: 'SecurityKey does not match SHA256(ApiKey + ApiSecret + OperationGuid)',
        errorCode: 'invalid_signature',
      },
    });
    const unknownWithdrawal = await postJson(`${app.baseUrl}/withdraws/withdraw-request`, {
      ...fields(nobody),
      AccountNumber: VALID_IBAN,
    });
    expect(unknownWithdrawal).toMatchObject({ status: 401, body: { Success: false, errorCode: 'invalid_signature' } });
    for (const key of [KEYS.h2h, KEYS.ipLocked, KEYS.disabled, KEYS.merchant]) {
      const answer = await postJson(`${app.baseUrl}/deposits/deposit-request`, wrong(key));
      expect({ key: key.apiKey, answer }).toEqual({ key: key.apiKey, answer: unknown });
      const withdrawal = await postJson(`${app.baseUrl}/withdraws/withdraw-request`, {
        ...wrong(key),
        AccountNumber: VALID_IBAN,
      });
      expect({ key: key.apiKey, withdrawal }).toEqual({ key: key.apiKey, withdrawal: unknownWithdrawal });
    }
    // The right SecurityKey of an H2H key: now the form is named.
    const otherForm = await postJson(`${app.baseUrl}/deposits/deposit-request`, fields(KEYS.h2h));
    expect(otherForm).toMatchObject({ status: 403, body: { errorCode: 'form_not_enabled' } });
  });
});
