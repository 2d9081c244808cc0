import { ConfigureBankAccountCommand, ConfigureMerchantCommand, DomainError } from '@transfergate/contracts';
import { LedgerProjectionRunner, configIdFor } from '@transfergate/ledger';
import { ENGINES, issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { BOOTSTRAP_ACCOUNT, BOOTSTRAP_MERCHANT, refusalCode, requestDeposit } from '../support/deposit-command.js';

const MERCHANT = configIdFor.merchant('Acme');
const ACTOR = { source: 'test', operatorId: 'op-1' };

const MERCHANT_RULES = BOOTSTRAP_MERCHANT;
const ACCOUNT = BOOTSTRAP_ACCOUNT;

/**
 * The deposit hot path reads merchant rules, receiving accounts and their daily volumes from an
 * in-memory mirror of the read models (deposit-context.cache.ts). It must answer what the tables
 * would: every change made through a command applies to the very next deposit, and the mirror is
 * moved by nothing but the projection's events.
 */
describe.each(ENGINES)('deposit context from memory on %s', (engine) => {
  let app: TestApp;
  let projection: LedgerProjectionRunner;
  let seq = 0;
  const nextId = () => `CACHE-${engine}-${++seq}-${Date.now()}`;

  beforeAll(async () => {
    app = await startTestApp(engine);
    await app.provision(issueBootstrap());
    projection = app.app.get(LedgerProjectionRunner);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const deposit = (amountKurus: bigint, externalId = nextId()) => requestDeposit(app, amountKurus, externalId);
  const refusal = refusalCode;
  const configureMerchant = (changes: Partial<typeof MERCHANT_RULES>) =>
    app.commands.execute(new ConfigureMerchantCommand({ ...MERCHANT_RULES, ...changes }, ACTOR));
  const configureAccount = (changes: Partial<typeof ACCOUNT>) =>
    app.commands.execute(new ConfigureBankAccountCommand({ ...ACCOUNT, ...changes }, ACTOR));

  it('decides deposits from memory: a row edited behind the projection is not read, events are', async () => {
    await deposit(10_000n);
    await app.settle();
    await deposit(10_000n); // the cache is loaded by now (the first call may have read SQL)
    expect(projection.depositContextLoads).toBeGreaterThanOrEqual(1);
    // Not an event: the tables change, the decision does not (it is not read from the tables).
    await app.db.query(
      `update rm_merchants set record = jsonb_set(record, '{active}', 'false') where merchant_id = $1`,
      [MERCHANT],
    );
    await expect(deposit(10_000n)).resolves.toMatchObject({ state: 'awaiting_payment' });
    await app.db.query(
      `update rm_merchants set record = jsonb_set(record, '{active}', 'true') where merchant_id = $1`,
      [MERCHANT],
    );
  });

  it('applies every merchant and account change to the very next deposit', async () => {
    await deposit(10_000n);
    await configureMerchant({ maxAmountKurus: 20_000n });
    expect(await refusal(deposit(30_000n))).toBe('amount_out_of_range');
    await expect(deposit(20_000n)).resolves.toMatchObject({ amountKurus: '20000' });
    await configureMerchant({ active: false });
    expect(await refusal(deposit(10_000n))).toBe('merchant_disabled');
    await configureMerchant({});
    await expect(deposit(30_000n)).resolves.toMatchObject({ amountKurus: '30000' });

    await configureAccount({ active: false });
    expect(await refusal(deposit(10_000n))).toBe('no_receiving_account');
    await configureAccount({ maxAmountKurus: 15_000n });
    expect(await refusal(deposit(20_000n))).toBe('no_receiving_account');
    await expect(deposit(15_000n)).resolves.toMatchObject({ amountKurus: '15000' });
    await configureAccount({});
  });

  it("counts each answered deposit in its account's day: the next one over the daily limit is refused", async () => {
    await app.settle();
    const { rows } = await app.db.query<{ issued: string }>(
      `select coalesce(sum(issued_kurus), 0)::text as issued from rm_bank_account_daily
       where day = ((now() at time zone 'UTC') + interval '3 hours')::date`,
    );
    const issued = BigInt(rows[0]!.issued);
    await configureAccount({ dailyLimitKurus: issued + 25_000n });
    await expect(deposit(10_000n)).resolves.toMatchObject({ state: 'awaiting_payment' });
    await expect(deposit(10_000n)).resolves.toMatchObject({ state: 'awaiting_payment' });
    expect(await refusal(deposit(10_000n))).toBe('no_receiving_account');
    await expect(deposit(5_000n)).resolves.toMatchObject({ state: 'awaiting_payment' });
    expect(await refusal(deposit(1_000n))).toBe('no_receiving_account');
    await configureAccount({});
    await expect(deposit(1_000n)).resolves.toMatchObject({ state: 'awaiting_payment' });
  });

  it('under concurrent deposits, a deactivation applies to every deposit that starts after it answered', async () => {
    const before = Array.from({ length: 30 }, () =>
      deposit(10_000n).then(
        () => 'ok',
        (e: DomainError) => e.errorCode,
      ),
    );
    const deactivated = configureAccount({ active: false });
    await deactivated;
    const after = await Promise.all(Array.from({ length: 20 }, () => refusal(deposit(10_000n))));
    expect(after).toEqual(Array.from({ length: 20 }, () => 'no_receiving_account'));
    const early = await Promise.all(before);
    expect(early.every((o) => o === 'ok' || o === 'no_receiving_account')).toBe(true);
    await configureAccount({});
    await expect(deposit(10_000n)).resolves.toMatchObject({ state: 'awaiting_payment' });
  });
});
