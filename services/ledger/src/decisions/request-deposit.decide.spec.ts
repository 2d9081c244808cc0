import { domainEvent } from '@transfergate/contracts';
import { decideRequestDeposit, type DepositRequestContext } from './request-deposit.decide.js';
import {
  DEPOSIT_ID,
  MERCHANT_ID,
  bankAccountRecord,
  merchantRecord,
  refusalOf,
  then,
} from './testing/given-when-then.js';

const request = (amountKurus: bigint, extra: { callbackUrl?: string } = {}) => ({
  merchantId: MERCHANT_ID,
  providerId: 'p-1',
  infrastructureId: 'i-1',
  form: 'h2h' as const,
  externalId: 'dep-1',
  amountKurus,
  customer: { fullName: 'Ayşe Yılmaz' },
  requestFingerprint: 'fp',
  actor: { source: 'gateway' },
  ...extra,
});

const context = (change: Partial<DepositRequestContext> = {}): DepositRequestContext => ({
  transactionId: DEPOSIT_ID,
  merchant: merchantRecord({ minAmountKurus: '1000', maxAmountKurus: '5000000' }),
  account: bankAccountRecord(),
  number: 41,
  nowMs: Date.parse('2026-01-01T09:00:00.000Z'),
  depositTtlMs: 30 * 60_000,
  paymentToken: 'token-1',
  ...change,
});

describe('decideRequestDeposit', () => {
  it('issues the deposit into the chosen account, payable until now + its time to live', () => {
    expect(decideRequestDeposit(request(10_000n, { callbackUrl: 'https://shop.test/cb' }), context())).toEqual(
      domainEvent('DepositRequested', {
        transactionId: DEPOSIT_ID,
        number: 41,
        merchantId: MERCHANT_ID,
        providerId: 'p-1',
        infrastructureId: 'i-1',
        form: 'h2h',
        externalId: 'dep-1',
        requestFingerprint: 'fp',
        callbackUrl: 'https://shop.test/cb',
        echo: {},
        amountKurus: '10000',
        customer: { fullName: 'Ayşe Yılmaz' },
        receivingAccount: {
          bankAccountId: 'ba-1',
          bank: 'Ziraat',
          bankCode: '00010',
          holderName: 'Transfer Gate AŞ',
          iban: 'TR330006100519786457841326',
          fast: true,
        },
        paymentToken: 'token-1',
        expiresAt: '2026-01-01T09:30:00.000Z',
      }),
    );
  });

  it.each([
    ['the minimum', 1_000n],
    ['the maximum', 5_000_000n],
  ])('takes exactly %s', (_what, amount) => {
    expect(decideRequestDeposit(request(amount), context())).toMatchObject({ type: 'DepositRequested' });
  });

  it.each([
    ['below the minimum', 999n],
    ['above the maximum', 5_000_001n],
  ])('refuses an amount %s, naming the range', (_what, amount) => {
    const refusal = refusalOf(decideRequestDeposit(request(amount), context()));
    expect(refusal.errorCode).toBe('amount_out_of_range');
    expect(refusal.message).toBe('amount must be between 10.00 and 50000.00 TRY');
    expect(refusal.details).toEqual({ minAmount: '10.00', maxAmount: '50000.00' });
  });

  it('refuses an inactive merchant, and one whose rules are unknown', () => {
    const inactive = context({ merchant: merchantRecord({ active: false }) });
    expect(then(decideRequestDeposit(request(10_000n), inactive) as never)).toEqual({ refused: 'merchant_disabled' });
    expect(refusalOf(decideRequestDeposit(request(10_000n), context({ merchant: undefined }))).errorCode).toBe(
      'merchant_disabled',
    );
  });

  it("refuses when no account can take the amount today (its limits or the day's volume)", () => {
    expect(refusalOf(decideRequestDeposit(request(10_000n), context({ account: undefined }))).errorCode).toBe(
      'no_receiving_account',
    );
  });

  it("checks the merchant's rules before the account", () => {
    const refusal = refusalOf(
      decideRequestDeposit(request(10_000n), context({ merchant: undefined, account: undefined })),
    );
    expect(refusal.errorCode).toBe('merchant_disabled');
  });
});
