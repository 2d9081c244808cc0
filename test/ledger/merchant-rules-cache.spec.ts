import { jest } from '@jest/globals';
import {
  ApproveTransactionCommand,
  ConfigureMerchantCommand,
  DomainError,
  RequestWithdrawalCommand,
  STREAMS,
  type TransactionView,
  transactionIdFor,
} from '@transfergate/contracts';
import { checkLedgerInvariants, configIdFor } from '@transfergate/ledger';
import { ENGINES, issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { BOOTSTRAP_MERCHANT, refusalCode, requestDeposit } from '../support/deposit-command.js';

const MERCHANT = configIdFor.merchant('Acme');
const PROVIDER = configIdFor.provider('acme-h2h');
const ACTOR = { source: 'test', operatorId: 'op-1' };
const IBAN = 'TR930006200000000006295317';

/** The bootstrap's merchant, with room to withdraw without deposits first. */
const MERCHANT_RULES = { ...BOOTSTRAP_MERCHANT, overdraftLimitKurus: 1_000_000_000n };

/**
 * Withdrawal requests, deposit approvals and amount changes take the merchant's rules from the
 * deposit-context cache (commands/merchant-rules.ts), not from the merchant's stream, and a new
 * withdrawal reads no transaction stream (its no_stream expectation is the duplicate check). The
 * answers must stay those of the stream: every change applies to the very next command, a repeat
 * gets its first answer whatever changed since, and parallel repeats make one transaction.
 */
describe.each(ENGINES)('merchant rules from memory on %s', (engine) => {
  let app: TestApp;
  let seq = 0;
  const nextId = (prefix: string) => `${prefix}-${engine}-${++seq}-${Date.now()}`;

  beforeAll(async () => {
    app = await startTestApp(engine);
    await app.provision(issueBootstrap());
    await configureMerchant({});
  });
  afterAll(async () => {
    await app?.stop();
  });

  const configureMerchant = (changes: Partial<typeof MERCHANT_RULES>) =>
    app.commands.execute(new ConfigureMerchantCommand({ ...MERCHANT_RULES, ...changes }, ACTOR));
  const withdrawal = (externalId: string, amountKurus: bigint, fingerprint = `fp-${externalId}-${amountKurus}`) =>
    app.commands.execute(
      new RequestWithdrawalCommand({
        merchantId: MERCHANT,
        providerId: PROVIDER,
        infrastructureId: configIdFor.infrastructure('acme'),
        form: 'h2h',
        externalId,
        amountKurus,
        customer: { fullName: 'Ayşe Yılmaz' },
        requestFingerprint: fingerprint,
        actor: { source: 'test' },
        iban: IBAN,
      }),
    ) as Promise<TransactionView>;
  const approve = (transactionId: string) =>
    app.commands.execute(new ApproveTransactionCommand({ transactionId, actor: ACTOR })) as Promise<TransactionView>;
  const refusal = refusalCode;
  /** The streams the store was asked to read while `work` ran. */
  const streamsReadBy = async (work: () => Promise<unknown>): Promise<string[]> => {
    const read = jest.spyOn(app.store, 'readStream');
    try {
      await work();
      return read.mock.calls.map(([streamId]) => streamId);
    } finally {
      read.mockRestore();
    }
  };
  const pendingDebitsKurus = async () => {
    await app.settle();
    const { rows } = await app.db.query<{ dp: string }>(
      `select coalesce(debits_pending_kurus, 0)::text dp from rm_balances where account_id = $1`,
      [`merchant:${MERCHANT}`],
    );
    return BigInt(rows[0]?.dp ?? '0');
  };
  /** The commission the ledger posted for an approved deposit (its fee transfer). */
  const postedCommissionKurus = async (transactionId: string) => {
    const events = await app.store.readStream(STREAMS.merchantLedger(MERCHANT));
    const posting = events.find(
      (e) => e.type === 'TransfersPosted' && (e.data as { transactionId: string }).transactionId === transactionId,
    );
    const transfers = (posting!.data as { transfers: Array<{ transferId: string; amountKurus: string }> }).transfers;
    return BigInt(transfers.find((t) => t.transferId.endsWith(':commission'))?.amountKurus ?? '0');
  };

  it('a new withdrawal reads neither its merchant nor its transaction stream; an approval no merchant stream', async () => {
    await withdrawal(nextId('WARM'), 10_000n); // the cache is loaded by now
    await app.settle();
    const externalId = nextId('W');
    const read = await streamsReadBy(() => withdrawal(externalId, 10_000n));
    expect(read).not.toContain(STREAMS.merchant(MERCHANT));
    expect(read).not.toContain(STREAMS.transaction(transactionIdFor(PROVIDER, externalId)));
    expect(read).toContain(STREAMS.merchantLedger(MERCHANT)); // the balance is still read from its stream

    const deposit = await requestDeposit(app, 20_000n, nextId('D'));
    const approvalReads = await streamsReadBy(() => approve(deposit.transactionId));
    expect(approvalReads).not.toContain(STREAMS.merchant(MERCHANT));
  });

  it('applies every merchant change to the very next withdrawal and approval', async () => {
    await configureMerchant({ maxAmountKurus: 20_000n });
    expect(await refusal(withdrawal(nextId('W'), 30_000n))).toBe('amount_out_of_range');
    await expect(withdrawal(nextId('W'), 20_000n)).resolves.toMatchObject({ amountKurus: '20000' });

    await configureMerchant({ active: false });
    expect(await refusal(withdrawal(nextId('W'), 10_000n))).toBe('merchant_disabled');

    await configureMerchant({ withdrawalCommissionBp: 100 });
    await expect(withdrawal(nextId('W'), 10_000n)).resolves.toMatchObject({ feeKurus: '100' });

    await configureMerchant({ overdraftLimitKurus: 0n });
    expect(await refusal(withdrawal(nextId('W'), 10_000n))).toBe('insufficient_balance');

    const deposit = await requestDeposit(app, 100_000n, nextId('D'));
    await configureMerchant({ depositCommissionBp: 300 });
    await approve(deposit.transactionId);
    expect(await postedCommissionKurus(deposit.transactionId)).toBe(3_000n);

    await configureMerchant({});
    await expect(withdrawal(nextId('W'), 10_000n)).resolves.toMatchObject({ feeKurus: '0' });
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('a repeat gets its first answer after the rules or the balance changed; a new id gets the refusal', async () => {
    const externalId = nextId('REPEAT');
    const first = await withdrawal(externalId, 15_000n);
    const repeat = async () => withdrawal(externalId, 15_000n);

    await configureMerchant({ active: false });
    await expect(repeat()).resolves.toMatchObject({ number: first.number, replayed: true });
    expect(await refusal(withdrawal(externalId, 15_000n, 'another payload'))).toBe('duplicate_transaction');
    expect(await refusal(withdrawal(nextId('NEW'), 15_000n))).toBe('merchant_disabled');

    await configureMerchant({ maxAmountKurus: 10_000n });
    await expect(repeat()).resolves.toMatchObject({ number: first.number, replayed: true });

    await configureMerchant({ overdraftLimitKurus: 0n });
    await expect(repeat()).resolves.toMatchObject({ number: first.number, replayed: true });
    expect(await refusal(withdrawal(nextId('NEW'), 40_000_000n))).toBe('insufficient_balance');
    await configureMerchant({});
  });

  it('20 parallel repeats of one withdrawal: one transaction, one reservation, one answer; another payload is a duplicate', async () => {
    const before = await pendingDebitsKurus();
    const externalId = nextId('PAR');
    const views = await Promise.all(Array.from({ length: 20 }, () => withdrawal(externalId, 12_345n, 'same')));
    expect(new Set(views.map((v) => v.number)).size).toBe(1);
    expect(views.filter((v) => !v.replayed)).toHaveLength(1);
    const others = await Promise.all(
      Array.from({ length: 10 }, (_, i) => refusal(withdrawal(externalId, 12_345n, `other-${i}`))),
    );
    expect(others).toEqual(Array.from({ length: 10 }, () => 'duplicate_transaction'));
    expect((await pendingDebitsKurus()) - before).toBe(12_345n);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('under concurrent withdrawals, a deactivation applies to every withdrawal that starts after it answered', async () => {
    const before = Array.from({ length: 30 }, () =>
      withdrawal(nextId('C'), 10_000n).then(
        () => 'ok',
        (e: DomainError) => e.errorCode,
      ),
    );
    await configureMerchant({ active: false });
    const after = await Promise.all(Array.from({ length: 20 }, () => refusal(withdrawal(nextId('C'), 10_000n))));
    expect(after).toEqual(Array.from({ length: 20 }, () => 'merchant_disabled'));
    const early = await Promise.all(before);
    expect(early.filter((o) => o !== 'ok' && o !== 'merchant_disabled')).toEqual([]);
    await configureMerchant({});
    await expect(withdrawal(nextId('C'), 10_000n)).resolves.toMatchObject({ state: 'pending' });
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });
});
