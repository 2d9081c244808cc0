import { jest } from '@jest/globals';
import {
  ApproveTransactionCommand,
  AssignTransactionCommand,
  ChangeAmountCommand,
  DomainError,
  ExpireTransactionCommand,
  RejectTransactionCommand,
  ReportPaymentCommand,
  RequestDepositCommand,
  RequestWithdrawalCommand,
  STREAMS,
  type TransactionView,
} from '@transfergate/contracts';
import { WrongExpectedVersionError } from '@transfergate/event-store';
import { DepositExpirySweeper, checkLedgerInvariants, configIdFor } from '@transfergate/ledger';
import { ENGINES, issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';

const MERCHANT = configIdFor.merchant('Acme');
const PROVIDER = configIdFor.provider('acme-h2h');
const INFRA = configIdFor.infrastructure('acme');
const BANK = configIdFor.bankAccount('TR330006100519786457841326');
const VALID_IBAN = 'TR930006200000000006295317';

describe.each(ENGINES)('ledger on %s', (engine) => {
  let app: TestApp;
  let seq = 0;
  const nextId = (prefix: string) => `${prefix}-${engine}-${++seq}-${Date.now()}`;

  beforeAll(async () => {
    app = await startTestApp(engine);
    await app.provision(issueBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  const origin = (externalId: string, amountKurus: bigint, fingerprint = `fp-${externalId}-${amountKurus}`) => ({
    merchantId: MERCHANT,
    providerId: PROVIDER,
    infrastructureId: INFRA,
    form: 'h2h' as const,
    externalId,
    amountKurus,
    customer: { fullName: 'Ayşe Yılmaz' },
    requestFingerprint: fingerprint,
    actor: { source: 'test' },
  });
  const deposit = (externalId: string, amountKurus: bigint, fingerprint?: string): Promise<TransactionView> =>
    app.commands.execute(new RequestDepositCommand(origin(externalId, amountKurus, fingerprint)));
  const withdrawal = (externalId: string, amountKurus: bigint): Promise<TransactionView> =>
    app.commands.execute(new RequestWithdrawalCommand({ ...origin(externalId, amountKurus), iban: VALID_IBAN }));
  const approve = (transactionId: string) =>
    app.commands.execute(
      new ApproveTransactionCommand({ transactionId, actor: { source: 'test', operatorId: 'op-1' } }),
    );
  const reject = (transactionId: string, reason = 'not received') =>
    app.commands.execute(new RejectTransactionCommand({ transactionId, reason, actor: { source: 'test' } }));

  async function balance(account: string) {
    await app.settle();
    const { rows } = await app.db.query<Record<string, string>>(
      `select debits_pending_kurus::text dp, debits_posted_kurus::text dpo, credits_pending_kurus::text cp,
              credits_posted_kurus::text cpo from rm_balances where account_id = $1`,
      [account],
    );
    const r = rows[0] ?? { dp: '0', dpo: '0', cp: '0', cpo: '0' };
    return { dp: BigInt(r.dp!), dpo: BigInt(r.dpo!), cp: BigInt(r.cp!), cpo: BigInt(r.cpo!) };
  }
  const available = async () => {
    const b = await balance(`merchant:${MERCHANT}`);
    return b.cpo - b.dpo - b.dp;
  };
  const expectDomainError = async (promise: Promise<unknown>, errorCode: string) => {
    await expect(promise).rejects.toBeInstanceOf(DomainError);
    await promise.catch((error: DomainError) => expect(error.errorCode).toBe(errorCode));
  };

  it('a deposit is requested, approved once, and credits the merchant less commission (double entry)', async () => {
    const before = await available();
    const feesBefore = (await balance('fees')).cpo;
    const view = await deposit(nextId('D'), 100_000n); // 1,000.00 TRY
    expect(view).toMatchObject({ type: 'deposit', state: 'awaiting_payment', amountKurus: '100000' });
    expect(view.bankAccount).toMatchObject({ bankAccountId: BANK, iban: 'TR330006100519786457841326', fast: true });
    expect(view.paymentToken!.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits in base64url
    const approved = await approve(view.transactionId);
    expect(approved.state).toBe('approved');
    expect((await available()) - before).toBe(98_500n); // 1.5 % commission
    expect((await balance('fees')).cpo - feesBefore).toBe(1_500n);
    await expectDomainError(approve(view.transactionId), 'transaction_final');
    await expectDomainError(reject(view.transactionId), 'transaction_final');
    expect((await available()) - before).toBe(98_500n);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('10 parallel approvals of one deposit: exactly one succeeds, the ledger posts once', async () => {
    const before = await available();
    const view = await deposit(nextId('PAR'), 50_000n);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => approve(view.transactionId)));
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === 'rejected')) {
      expect(((o as PromiseRejectedResult).reason as DomainError).errorCode).toBe('transaction_final');
    }
    expect((await available()) - before).toBe(49_250n);
    const { rows } = await app.db.query(`select 1 from rm_transfers where transaction_id = $1 and state = 'posted'`, [
      view.transactionId,
    ]);
    expect(rows).toHaveLength(2); // merchant share + commission, once
  });

  it('40 parallel approvals of 40 deposits of one merchant and 20 withdrawals approved or rejected at once: all succeed', async () => {
    const before = await available();
    const deposits = await Promise.all(Array.from({ length: 40 }, (_, i) => deposit(nextId(`MANY${i}`), 10_000n)));
    const approved = await Promise.allSettled(deposits.map((d) => approve(d.transactionId)));
    // Different transactions of one merchant never conflict: no concurrency_conflict, no retry asked.
    expect(approved.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason)).toEqual([]);
    expect((await available()) - before).toBe(40n * 9_850n);
    // Requested one by one (a reservation checks the balance: concurrent requests of one merchant
    // queue on its ledger's version), then approved and rejected all at once.
    const withdrawals: TransactionView[] = [];
    for (let i = 0; i < 20; i++) withdrawals.push(await withdrawal(nextId(`WMANY${i}`), 1_000n));
    const settled = await Promise.allSettled(
      withdrawals.map((w, i) => (i % 2 === 0 ? approve(w.transactionId) : reject(w.transactionId))),
    );
    expect(settled.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason)).toEqual([]);
    expect((await available()) - before).toBe(40n * 9_850n - 10n * 1_000n);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('parallel withdrawal requests of one merchant: reserved while the balance covers them, never beyond, none refused for a conflict', async () => {
    const funding = await deposit(nextId('WPAR-D'), 200_000n);
    await approve(funding.transactionId);
    // A filler reservation leaves exactly 6 × 100.00 TRY + 5.00 available (no overdraft, no fee).
    const filler = await withdrawal(nextId('WPAR-F'), (await available()) - 60_500n);
    expect(await available()).toBe(60_500n);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => withdrawal(nextId(`WPAR${i}`), 10_000n)),
    );
    const reserved = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as DomainError).errorCode] : []));
    expect(reserved).toHaveLength(6);
    expect(refusals).toEqual(Array.from({ length: 6 }, () => 'insufficient_balance'));
    expect(await available()).toBe(500n);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
    // Released again: 32 side by side that all fit are all reserved (no concurrency_conflict).
    await Promise.all([filler, ...reserved].map((w) => reject(w.transactionId)));
    const many = await Promise.allSettled(Array.from({ length: 32 }, (_, i) => withdrawal(nextId(`WALL${i}`), 1_000n)));
    expect(many.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason)).toEqual([]);
    await Promise.all(many.map((o) => reject((o as PromiseFulfilledResult<TransactionView>).value.transactionId)));
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('amount changes of withdrawals amid parallel requests of their merchant wait in its queue: none loses the ledger version', async () => {
    const funding = await deposit(nextId('WQ-D'), 100_000n);
    await approve(funding.transactionId);
    const before = await available();
    const open = await Promise.all(Array.from({ length: 4 }, (_, i) => withdrawal(nextId(`WQ-O${i}`), 1_000n)));
    const appends = jest.spyOn(app.store, 'appendMany');
    let outcomes: PromiseSettledResult<TransactionView>[];
    let conflicts: unknown[];
    try {
      outcomes = await Promise.allSettled([
        ...Array.from({ length: 24 }, (_, i) => withdrawal(nextId(`WQ${i}`), 1_000n)),
        ...open.map((w) =>
          app.commands.execute(
            new ChangeAmountCommand({ transactionId: w.transactionId, amountKurus: 1_500n, actor: { source: 'test' } }),
          ),
        ),
      ]);
      const appended = await Promise.allSettled(appends.mock.results.map((result) => result.value));
      conflicts = appended.flatMap((o) =>
        o.status === 'rejected' &&
        o.reason instanceof WrongExpectedVersionError &&
        o.reason.streamId === STREAMS.merchantLedger(MERCHANT)
          ? [o.reason]
          : [],
      );
    } finally {
      appends.mockRestore();
    }
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    // Requests and amount changes are the only writers that check the ledger's version, and in one
    // process they take turns: not one attempt of them was refused for it.
    expect(conflicts).toEqual([]);
    expect(outcomes.slice(24).map((o) => (o as PromiseFulfilledResult<TransactionView>).value.amountKurus)).toEqual(
      Array.from({ length: 4 }, () => '1500'),
    );
    expect(before - (await available())).toBe(24n * 1_000n + 4n * 1_500n);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('parallel approve and reject of one deposit: exactly one wins', async () => {
    const view = await deposit(nextId('AR'), 20_000n);
    const outcomes = await Promise.allSettled([
      approve(view.transactionId),
      reject(view.transactionId),
      approve(view.transactionId),
      reject(view.transactionId),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('20 parallel requests with one external id: one transaction, same answer; another payload is a duplicate', async () => {
    const externalId = nextId('DUP');
    const views = await Promise.all(Array.from({ length: 20 }, () => deposit(externalId, 25_000n, 'same')));
    expect(new Set(views.map((v) => v.transactionId)).size).toBe(1);
    expect(new Set(views.map((v) => v.number)).size).toBe(1);
    expect(new Set(views.map((v) => v.bankAccount!.iban)).size).toBe(1);
    const mixed = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => deposit(externalId, 25_000n, `other-${i}`)),
    );
    for (const o of mixed) {
      expect(o.status).toBe('rejected');
      expect(((o as PromiseRejectedResult).reason as DomainError).errorCode).toBe('duplicate_transaction');
    }
    await app.settle();
    const { rows } = await app.db.query(`select 1 from rm_transactions where external_id = $1`, [externalId]);
    expect(rows).toHaveLength(1);
  });

  it('amounts outside the merchant limits are refused with amount_out_of_range', async () => {
    await expectDomainError(deposit(nextId('MIN'), 999n), 'amount_out_of_range');
    await expectDomainError(deposit(nextId('MAX'), 50_000_001n), 'amount_out_of_range');
  });

  it('a withdrawal reserves amount + fee (pending), rejection voids it, approval posts it', async () => {
    await approve((await deposit(nextId('FUND'), 1_000_000n)).transactionId);
    const start = await available();
    const w1 = await withdrawal(nextId('W'), 200_000n);
    expect(w1).toMatchObject({ type: 'withdrawal', state: 'pending', iban: VALID_IBAN });
    expect(start - (await available())).toBe(200_000n);
    await reject(w1.transactionId, 'name mismatch');
    expect(await available()).toBe(start);
    const w2 = await withdrawal(nextId('W'), 150_000n);
    const assigned = await app.commands.execute(
      new AssignTransactionCommand({ transactionId: w2.transactionId, assignee: 'op-7', actor: { source: 'test' } }),
    );
    expect(assigned).toMatchObject({ state: 'processing', assignee: 'op-7' });
    await approve(w2.transactionId);
    expect(start - (await available())).toBe(150_000n);
    const clearing = await balance('payout-clearing');
    expect(clearing.cpo).toBeGreaterThanOrEqual(150_000n);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('a withdrawal past the overdraft limit is refused and reserves nothing', async () => {
    const before = await available();
    await expectDomainError(withdrawal(nextId('BIG'), before + 1n), 'insufficient_balance');
    expect(await available()).toBe(before);
    await expectDomainError(
      app.commands.execute(
        new RequestWithdrawalCommand({ ...origin(nextId('IBAN'), 1_000n), iban: 'TR330006100519786457841327' }),
      ),
      'invalid_iban',
    );
  });

  it('20 parallel withdrawals against a balance that covers 5: exactly 5 reserve, never below the limit', async () => {
    const have = await available();
    // Drain to a known balance: reserve all but 5 × 10,000 kuruş.
    if (have > 50_000n) await withdrawal(nextId('DRAIN'), have - 50_000n);
    expect(await available()).toBe(50_000n);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => withdrawal(nextId('RACE'), 10_000n)));
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    expect(ok).toHaveLength(5);
    for (const o of outcomes.filter((o) => o.status === 'rejected')) {
      expect(((o as PromiseRejectedResult).reason as DomainError).errorCode).toBe('insufficient_balance');
    }
    expect(await available()).toBe(0n);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('report payment, change amount (original kept), expire, and what final states refuse', async () => {
    const d = await deposit(nextId('FLOW'), 30_000n);
    const reported = await app.commands.execute(
      new ReportPaymentCommand({ transactionId: d.transactionId, actor: { source: 'customer' } }),
    );
    expect(reported.state).toBe('payment_reported');
    const changed = await app.commands.execute(
      new ChangeAmountCommand({ transactionId: d.transactionId, amountKurus: 29_000n, actor: { source: 'test' } }),
    );
    expect(changed).toMatchObject({ amountKurus: '29000', originalAmountKurus: '30000' });
    await expectDomainError(
      app.commands.execute(new ExpireTransactionCommand({ transactionId: d.transactionId, now: new Date() })),
      'invalid_state_transition',
    );
    const expired = await app.commands.execute(
      new ExpireTransactionCommand({ transactionId: d.transactionId, now: new Date(Date.now() + 31 * 60_000) }),
    );
    expect(expired.state).toBe('expired');
    await expectDomainError(approve(d.transactionId), 'invalid_state_transition');
    const late = await app.commands.execute(
      new ApproveTransactionCommand({ transactionId: d.transactionId, actor: { source: 'test' }, allowExpired: true }),
    );
    expect(late.state).toBe('approved');
    await expectDomainError(
      app.commands.execute(
        new ChangeAmountCommand({ transactionId: d.transactionId, amountKurus: 1n, actor: { source: 'test' } }),
      ),
      'transaction_final',
    );
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('the expiry sweeper expires due deposits once and leaves decided ones alone', async () => {
    const due = await deposit(nextId('EXP'), 12_000n);
    const decided = await deposit(nextId('EXP'), 13_000n);
    await approve(decided.transactionId);
    await app.settle();
    const sweeper = app.app.get(DepositExpirySweeper);
    const later = new Date(Date.now() + 31 * 60_000);
    const [a, b] = await Promise.all([sweeper.sweep(later), sweeper.sweep(later)]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    const stream = await app.store.readStream(`txn-${due.transactionId}`);
    expect(stream.filter((e) => e.type === 'TransactionExpired')).toHaveLength(1);
    const approvedStream = await app.store.readStream(`txn-${decided.transactionId}`);
    expect(approvedStream.map((e) => e.type)).toEqual(['DepositRequested', 'TransactionApproved']);
    await app.settle();
    expect(await sweeper.sweep(later)).toBe(0);
  });

  it('the invariant check names an inconsistency injected into the read models', async () => {
    await app.settle();
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
    await app.db.query(`update rm_balances set credits_posted_kurus = credits_posted_kurus + 1 where account_id = $1`, [
      `merchant:${MERCHANT}`,
    ]);
    const violations = await checkLedgerInvariants(app.db);
    expect(violations.map((v) => v.invariant)).toEqual(
      expect.arrayContaining(['debits_equal_credits', 'balance_matches_transfers']),
    );
    expect(violations.find((v) => v.invariant === 'balance_matches_transfers')!.subject).toBe(`merchant:${MERCHANT}`);
    await app.db.query(`update rm_balances set credits_posted_kurus = credits_posted_kurus - 1 where account_id = $1`, [
      `merchant:${MERCHANT}`,
    ]);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });
});
