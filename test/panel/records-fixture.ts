import { h2hHash, kurusFrom } from '@transfergate/contracts';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { panelClient } from './panel-client.js';

/**
 * The app records.spec.ts starts once and its scenarios (./records-scenarios/) share: PostgreSQL with
 * the issue bootstrap, the admin signed in, the ids and provider secrets the scenarios create and
 * act on later, and an H2H deposit through the gateway to see what a provider's keys open.
 */

/** Field names that must never appear in a public or list answer. */
export const SECRET_KEYS = new Set([
  'apiSecret',
  'apiSecretSealed',
  'secret',
  'passwordHash',
  'password',
  'totpSecretSealed',
]);

export function secretKeysIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => secretKeysIn(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, field]) => [
    ...(SECRET_KEYS.has(key) ? [`${path}.${key}`] : []),
    ...secretKeysIn(field, `${path}.${key}`),
  ]);
}

/** Starts the app in the calling describe's beforeAll and stops it in its afterAll; the getter is for the tests. */
export function useRecordsFixture() {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let adminId: string;
  const ids: Record<string, string> = {};
  const secrets: Record<string, { apiKey: string; apiSecret: string }> = {};

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap()); // admin / S3cure-pass!
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    adminId = (await client.get('/api/auth/me', admin)).body.id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function h2hDeposit(apiKey: string, apiSecret: string, transactionId: string, amount = 100) {
    return postJson(`${app.baseUrl}/deposit/bank`, {
      apikey: apiKey,
      transaction_id: transactionId,
      amount,
      fullname: 'Ayşe Yılmaz',
      hash: h2hHash(apiKey, transactionId, apiSecret, kurusFrom(amount)),
    });
  }

  return () => ({ app, client, admin, adminId, ids, secrets, h2hDeposit });
}

export type RecordsFixture = ReturnType<ReturnType<typeof useRecordsFixture>>;
