import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, VALID_IBAN, conformanceBootstrap, infraFields } from './conformance-fixture.js';

/**
 * The Infrastructure API's SecurityKey covers only ApiKey, ApiSecret and OperationGuid, so one seen
 * key must not create a second transaction: an OperationGuid is single-use per provider. Real
 * parallel requests against PostgreSQL; an identical repeat still gets the first answer.
 */
describe('Infrastructure API: one request per OperationGuid (PostgreSQL)', () => {
  let app: TestApp;
  let n = 0;
  const id = (prefix: string) => `${prefix}-${++n}-${Date.now()}`;
  // Shared with a second process of the same database (the upgrade below), which opens the secrets.
  const secretKey = randomBytes(32);

  beforeAll(async () => {
    app = await startTestApp('postgres', { secretKey });
    await app.provision(conformanceBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('20 parallel deposits with one OperationGuid: one is created, 19 are refused 409; a repeat replays', async () => {
    const guid = randomUUID();
    const requests = Array.from({ length: 20 }, () =>
      infraFields(id('OG'), 150, { OperationGuid: guid, CustomerFullName: 'Ali Veli' }),
    );
    const answers = await Promise.all(
      requests.map((body) => postJson(`${app.baseUrl}/deposits/deposit-request`, body)),
    );
    const created = answers.filter((a) => a.status === 200);
    expect(created).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused).toMatchObject({
        status: 409,
        body: { success: false, message: expect.any(String), errorCode: 'operation_guid_reused' },
      });
    }
    const winner = requests[answers.findIndex((a) => a.status === 200)]!;
    const repeat = await postJson(`${app.baseUrl}/deposits/deposit-request`, winner);
    expect(repeat).toEqual({ status: 200, body: created[0]!.body });
    const { rows } = await app.db.query<{ n: string }>(
      `select count(*)::text n from rm_transactions where provider_id in (select provider_id from rm_providers where api_key = $1)
         and external_id = any($2::text[])`,
      [KEYS.infra.apiKey, requests.map((r) => r.RequestId)],
    );
    expect(rows[0]!.n).toBe('1');

    // The same key on the withdrawal form (another RequestId, an IBAN of the attacker's choice): refused.
    const withdrawal = await postJson(`${app.baseUrl}/withdraws/withdraw-request`, {
      ...infraFields(id('OGW'), 9_999, { OperationGuid: guid }),
      CustomerFullName: 'Mallory',
      AccountNumber: VALID_IBAN,
    });
    expect(withdrawal).toMatchObject({
      status: 409,
      body: { Success: false, Message: expect.any(String), errorCode: 'operation_guid_reused' },
    });
  });

  it('10 parallel withdrawals with one OperationGuid: exactly one is created; GET with a fresh GUID still works', async () => {
    const guid = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        postJson(`${app.baseUrl}/withdraws/withdraw-request`, {
          ...infraFields(id('OGP'), 20, { OperationGuid: guid }),
          CustomerFullName: 'Zeynep Kaya',
          AccountNumber: VALID_IBAN,
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.errorCode === 'operation_guid_reused')).toHaveLength(9);

    const query = new URLSearchParams(
      Object.entries(infraFields(id('OGQ'), 75, { CustomerFullName: 'Ali Veli' })).map(([k, v]): [string, string] => [
        k,
        String(v),
      ]),
    );
    const viaGet = await fetch(`${app.baseUrl}/deposits/deposit-request?${query}`);
    expect(viaGet.status).toBe(200);

    // The withdrawal's GUID on the deposit form (another RequestId): refused too.
    const deposit = await postJson(
      `${app.baseUrl}/deposits/deposit-request`,
      infraFields(id('OGD'), 150, { OperationGuid: guid, CustomerFullName: 'Mallory' }),
    );
    expect(deposit).toMatchObject({ status: 409, body: { success: false, errorCode: 'operation_guid_reused' } });
  });

  it('a store written by the builds before the claim table: its OperationGuid claims are refused after the upgrade', async () => {
    // Earlier builds claimed a GUID with an event in a stream of its own and had no key table: such a
    // claim (sent again in upper case: GUIDs compare case-insensitively) and no table.
    const { rows } = await app.db.query<{ provider_id: string; schema: string }>(
      `select provider_id, current_schema() as schema from rm_providers where api_key = $1`,
      [KEYS.infra.apiKey],
    );
    const providerId = rows[0]!.provider_id;
    const oldGuid = randomUUID();
    const hashed = createHash('sha256').update(oldGuid).digest('hex');
    await app.store.append(
      `operation-guid-${providerId}-${hashed}`,
      [
        {
          eventId: randomUUID(),
          type: 'OperationGuidClaimed',
          schemaVersion: 1,
          data: { providerId, operationGuid: oldGuid, transactionId: randomUUID() },
        },
      ],
      'no_stream',
    );
    await app.db.exec('drop table ledger_operation_guid_keys');
    // The upgraded build starts on that database: a second process of it, as a rolling deploy runs.
    const upgraded = await startTestApp('postgres', { secretKey }, rows[0]!.schema);
    try {
      const reused = await postJson(
        `${upgraded.baseUrl}/deposits/deposit-request`,
        infraFields(id('OGU'), 150, { OperationGuid: oldGuid.toUpperCase(), CustomerFullName: 'Mallory' }),
      );
      expect(reused).toMatchObject({ status: 409, body: { success: false, errorCode: 'operation_guid_reused' } });
      const fresh = await postJson(
        `${upgraded.baseUrl}/deposits/deposit-request`,
        infraFields(id('OGU'), 150, { OperationGuid: randomUUID(), CustomerFullName: 'Ali Veli' }),
      );
      expect(fresh.status).toBe(200);
    } finally {
      await upgraded.stop();
    }
  });

  it('the key table of the previous build: its keys stay refused, and so do those its processes write in a rolling upgrade', async () => {
    const { rows } = await app.db.query<{ provider_id: string; schema: string }>(
      `select provider_id, current_schema() as schema from rm_providers where api_key = $1`,
      [KEYS.infra.apiKey],
    );
    const providerId = rows[0]!.provider_id;
    const sha256 = (guid: string) => createHash('sha256').update(guid).digest('hex');
    // A previous-build process's append writes its key row like this, in its table.
    const previousBuildClaims = (guid: string) =>
      app.db.query(
        `insert into ledger_operation_guids (provider_id, guid_sha256, transaction_id) values ($1, $2, $3)`,
        [providerId, sha256(guid), randomUUID()],
      );
    const deposit = (target: TestApp, guid: string) =>
      postJson(
        `${target.baseUrl}/deposits/deposit-request`,
        infraFields(id('OGR'), 150, { OperationGuid: guid, CustomerFullName: 'Ali Veli' }),
      );
    // The store as the previous build left it: its table, made as it made it, with a used GUID, and
    // none of this build's.
    await app.db.exec('drop table if exists ledger_operation_guid_keys');
    await app.db.exec(`create table ledger_operation_guids (
      provider_id text not null, guid_sha256 text not null, transaction_id uuid not null,
      primary key (provider_id, guid_sha256))`);
    const usedBefore = randomUUID();
    await previousBuildClaims(usedBefore);

    const upgraded = await startTestApp('postgres', { secretKey }, rows[0]!.schema);
    try {
      expect(await deposit(upgraded, usedBefore.toUpperCase())).toMatchObject({
        status: 409,
        body: { success: false, errorCode: 'operation_guid_reused' },
      });
      // A previous-build process still running claims a GUID after the upgrade: refused here too.
      const usedByPrevious = randomUUID();
      await previousBuildClaims(usedByPrevious);
      expect(await deposit(upgraded, usedByPrevious)).toMatchObject({
        status: 409,
        body: { success: false, errorCode: 'operation_guid_reused' },
      });
      // A GUID this build took first: the previous build's claim of it fails and writes nothing.
      const takenHere = randomUUID();
      expect((await deposit(upgraded, takenHere)).status).toBe(200);
      await expect(previousBuildClaims(takenHere)).rejects.toMatchObject({ code: '23505' });
      const { rows: left } = await app.db.query<{ n: string }>(
        `select count(*)::text n from ledger_operation_guids where guid_sha256 = $1`,
        [sha256(takenHere)],
      );
      expect(left[0]!.n).toBe('0');
      expect((await deposit(upgraded, randomUUID())).status).toBe(200);
    } finally {
      await upgraded.stop();
    }
  });
});
