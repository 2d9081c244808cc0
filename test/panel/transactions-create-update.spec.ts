import { checkLedgerInvariants } from '@transfergate/ledger';
import { VALID_IBAN } from '../gateway/conformance-fixture.js';
import { type TestApp } from '../support/test-app.js';
import { startTransactionsApp, type TransactionsApp } from './transactions-fixture.js';

/**
 * Transactions created and changed from the panel over real HTTP on PostgreSQL: panel create with
 * its idempotent repeat, update-quick and update-full.
 */
describe('panel transactions over HTTP (PostgreSQL): create and update', () => {
  let app: TestApp;
  let client: TransactionsApp['client'];
  let admin: TransactionsApp['admin'];
  let adminId: TransactionsApp['adminId'];
  let clerkId: TransactionsApp['clerkId'];
  let merchantId: TransactionsApp['merchantId'];
  let brokeMerchantId: TransactionsApp['brokeMerchantId'];
  let h2hProviderId: TransactionsApp['h2hProviderId'];
  let brokeProviderId: TransactionsApp['brokeProviderId'];
  let ext: TransactionsApp['ext'];
  let panelCreate: TransactionsApp['panelCreate'];

  beforeAll(async () => {
    ({
      app,
      client,
      admin,
      adminId,
      clerkId,
      merchantId,
      brokeMerchantId,
      h2hProviderId,
      brokeProviderId,
      ext,
      panelCreate,
    } = await startTransactionsApp());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('panel create: form panel, default external id, idempotent repeat, 409 on other data, rules from the ledger', async () => {
    const deposit = await panelCreate('deposit', { amount: '99.90', customerUsername: 'ayse42' });
    expect(deposit).toMatchObject({
      type: 'deposit',
      state: 'awaiting_payment',
      form: 'panel',
      amount: 99.9,
      customer: { fullName: 'Panel Müşteri', username: 'ayse42' },
    });
    expect(String(deposit.externalId)).toMatch(/^panel-[0-9a-f-]{36}$/);
    const detail = await client.get(`/panel/transactions/${deposit.id}`, admin);
    expect(detail.body.history[0].metadata).toMatchObject({ actor: adminId, source: 'panel' });

    const externalId = ext('PANEL');
    const first = await panelCreate('withdrawal', { externalId, amount: 80, iban: 'tr33 0006 1005 1978 6457 8413 26' });
    expect(first).toMatchObject({ externalId, type: 'withdrawal', state: 'pending', iban: VALID_IBAN, fee: 0.8 });
    // Provider by its integer number, IBAN spelled differently: the same request, the same answer.
    const providerNumber = (
      await app.db.query<{ n: string }>(`select record->>'number' n from rm_providers where provider_id = $1`, [
        h2hProviderId,
      ])
    ).rows[0]!.n;
    const repeat = await panelCreate('withdrawal', { externalId, amount: 80, providerId: Number(providerNumber) });
    expect(repeat.id).toBe(first.id);
    expect(
      await client.post(
        '/panel/withdrawal/create',
        {
          merchantId,
          providerId: h2hProviderId,
          externalId,
          amount: 81,
          customerName: 'Panel Müşteri',
          iban: VALID_IBAN,
        },
        admin,
      ),
    ).toMatchObject({ status: 409, body: { errorCode: 'duplicate_transaction' } });
    // The same external id as a deposit: another kind.
    expect(
      await client.post(
        '/panel/deposit/create',
        { merchantId, providerId: h2hProviderId, externalId, amount: 80, customerName: 'Panel Müşteri' },
        admin,
      ),
    ).toMatchObject({ status: 409 });

    // Provider of another merchant, unknown provider, bad IBAN, no balance, amount out of range.
    const base = { amount: 100, customerName: 'X Y', iban: VALID_IBAN };
    expect(
      await client.post('/panel/withdrawal/create', { ...base, merchantId, providerId: brokeProviderId }, admin),
    ).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    expect(
      await client.post('/panel/withdrawal/create', { ...base, merchantId, providerId: 'no-such-provider' }, admin),
    ).toMatchObject({ status: 404 });
    expect(
      await client.post(
        '/panel/withdrawal/create',
        { ...base, merchantId, providerId: h2hProviderId, iban: 'TR000000000000000000000000' },
        admin,
      ),
    ).toMatchObject({ status: 400, body: { errorCode: 'invalid_iban' } });
    expect(
      await client.post(
        '/panel/withdrawal/create',
        { ...base, merchantId: brokeMerchantId, providerId: brokeProviderId },
        admin,
      ),
    ).toMatchObject({ status: 422, body: { errorCode: 'insufficient_balance' } });
    expect(
      await client.post(
        '/panel/deposit/create',
        { merchantId, providerId: h2hProviderId, amount: 5, customerName: 'X Y' },
        admin,
      ),
    ).toMatchObject({ status: 422, body: { errorCode: 'amount_out_of_range' } });
    expect(
      await client.post('/panel/deposit/create', { merchantId, providerId: h2hProviderId, amount: 50 }, admin),
    ).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    await app.settle();
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('update-quick changes amount and/or assignee; update-full refuses fields the ledger cannot change', async () => {
    const w = await panelCreate('withdrawal', { amount: 200 });
    const quick = await client.post(
      '/panel/withdrawal/update-quick',
      { id: w.id, amount: 210, assignee: 'clerk1' },
      admin,
    );
    expect(quick).toMatchObject({
      status: 201,
      body: { amount: 210, originalAmount: 200, assignee: clerkId, state: 'processing' },
    });
    expect(await client.post('/panel/withdrawal/update-quick', { id: w.id }, admin)).toMatchObject({ status: 400 });
    expect(
      await client.post('/panel/withdrawal/update-quick', { id: w.id, amount: 5, note: 'x' }, admin),
    ).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    const versionOf = async () =>
      (await client.get(`/panel/transactions/${w.id}`, admin)).body.history.length as number;
    const before = await versionOf();
    // Unchanged fields send nothing.
    expect(
      await client.post(
        '/panel/withdrawal/update-full',
        { id: w.id, amount: 210, assignee: clerkId, customerName: 'Panel Müşteri', iban: VALID_IBAN },
        admin,
      ),
    ).toMatchObject({ status: 201, body: { amount: 210 } });
    expect(await versionOf()).toBe(before);
    // A changed name is refused before anything is written (the amount is not changed either).
    const refused = await client.post(
      '/panel/withdrawal/update-full',
      { id: w.id, amount: 220, customerName: 'Someone Else' },
      admin,
    );
    expect(refused).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    expect(refused.body.message).toMatch(/customerName/);
    expect(await versionOf()).toBe(before);
    const full = await client.post('/api/panel/withdrawal/update-full', { id: w.id, amount: 220 }, admin);
    expect(full).toMatchObject({ status: 201, body: { amount: 220, originalAmount: 200 } });
    expect(await versionOf()).toBe(before + 1);

    const d = await panelCreate('deposit', { amount: 60 });
    expect(await client.post('/panel/deposit/update-quick', { id: d.id, amount: 65 }, admin)).toMatchObject({
      status: 201,
      body: { amount: 65, originalAmount: 60, state: 'awaiting_payment' },
    });
    expect(
      await client.post(
        '/panel/deposit/update-full',
        {
          id: d.id,
          iban: (d.bankAccount as { iban: string }).iban === VALID_IBAN ? 'TR930006200000000006295317' : VALID_IBAN,
        },
        admin,
      ),
    ).toMatchObject({ status: 400 });
    await app.settle();
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });
});
