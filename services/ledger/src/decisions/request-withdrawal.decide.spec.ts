import { ACCOUNTS, domainEvent, STREAMS } from '@transfergate/contracts';
import { withdrawalTransfers } from '../domain/merchant-ledger.js';
import { decideRequestWithdrawal, withdrawalIbanOf, withdrawalRefusal } from './request-withdrawal.decide.js';
import {
  DEPOSIT_ID,
  MERCHANT_ID,
  WITHDRAWAL_ID,
  givenLedger,
  merchantRecord,
  refusalOf,
  then,
} from './testing/given-when-then.js';

const IBAN = 'TR330006100519786457841326';
const request = (amountKurus: bigint, iban = IBAN) => ({
  merchantId: MERCHANT_ID,
  providerId: 'p-1',
  infrastructureId: 'i-1',
  form: 'h2h' as const,
  externalId: 'wd-1',
  amountKurus,
  customer: { fullName: 'Ayşe Yılmaz' },
  requestFingerprint: 'fp',
  iban,
  actor: { source: 'gateway' },
});
// 1.5 % fee; 1,000.00 TRY credited.
const merchant = merchantRecord({ withdrawalCommissionBp: 150, overdraftLimitKurus: '0' });
const credited = domainEvent('TransfersPosted', {
  transactionId: DEPOSIT_ID,
  merchantId: MERCHANT_ID,
  transfers: [
    {
      transferId: `${DEPOSIT_ID}:deposit`,
      debitAccount: ACCOUNTS.bank('ba-1'),
      creditAccount: ACCOUNTS.merchant(MERCHANT_ID),
      amountKurus: '100000',
    },
  ],
});
const ledger = givenLedger(MERCHANT_ID, [credited]);
const context = { transactionId: WITHDRAWAL_ID, merchant, number: 7 };

describe('decideRequestWithdrawal', () => {
  it("creates the withdrawal and reserves amount + fee on the merchant's balance, in one append", () => {
    expect(then(decideRequestWithdrawal(request(50_000n), { ledger }, context))).toEqual({
      writes: [
        {
          streamId: STREAMS.transaction(WITHDRAWAL_ID),
          expectedVersion: 'no_stream',
          events: [
            domainEvent('WithdrawalRequested', {
              transactionId: WITHDRAWAL_ID,
              number: 7,
              merchantId: MERCHANT_ID,
              providerId: 'p-1',
              infrastructureId: 'i-1',
              form: 'h2h',
              externalId: 'wd-1',
              requestFingerprint: 'fp',
              echo: {},
              amountKurus: '50000',
              customer: { fullName: 'Ayşe Yılmaz' },
              feeKurus: '750',
              iban: IBAN,
            }),
          ],
        },
        {
          // At the ledger version the balance was read at: a concurrent change makes the append retry.
          streamId: STREAMS.merchantLedger(MERCHANT_ID),
          expectedVersion: 1,
          events: [
            domainEvent('TransfersReserved', {
              transactionId: WITHDRAWAL_ID,
              merchantId: MERCHANT_ID,
              transfers: withdrawalTransfers(WITHDRAWAL_ID, MERCHANT_ID, 50_000n, 750n),
            }),
          ],
        },
      ],
    });
  });

  it('takes a withdrawal whose amount and fee use the whole balance, refuses one kuruş more', () => {
    // 98,522 + 1,478 fee = 100,000; 98,523 + 1,478 = 100,001.
    expect(then(decideRequestWithdrawal(request(98_522n), { ledger }, context))).toMatchObject({ writes: [{}, {}] });
    const refusal = refusalOf(decideRequestWithdrawal(request(98_523n), { ledger }, context));
    expect(refusal.errorCode).toBe('insufficient_balance');
    expect(refusal.details).toEqual({ availableKurus: '100000', requiredKurus: '100001', overdraftLimitKurus: '0' });
  });

  it("goes into the merchant's overdraft up to its limit", () => {
    const overdraft = merchantRecord({ withdrawalCommissionBp: 0, overdraftLimitKurus: '5000' });
    const empty = givenLedger(MERCHANT_ID, []);
    const at = (amount: bigint) =>
      decideRequestWithdrawal(request(amount), { ledger: empty }, { ...context, merchant: overdraft });
    expect(then(at(5_000n))).toMatchObject({ writes: [{}, {}] });
    expect(then(at(5_001n))).toEqual({ refused: 'insufficient_balance' });
  });

  it('counts open reservations against the balance', () => {
    const reserved = domainEvent('TransfersReserved', {
      transactionId: '33333333-3333-4333-8333-333333333333',
      merchantId: MERCHANT_ID,
      transfers: withdrawalTransfers('33333333-3333-4333-8333-333333333333', MERCHANT_ID, 60_000n, 900n),
    });
    const held = givenLedger(MERCHANT_ID, [credited, reserved]);
    expect(then(decideRequestWithdrawal(request(50_000n), { ledger: held }, context))).toEqual({
      refused: 'insufficient_balance',
    });
  });

  it.each([
    ['an inactive merchant', merchantRecord({ active: false }), 10_000n, 'merchant_disabled'],
    ['an unknown merchant', undefined, 10_000n, 'merchant_disabled'],
    ['an amount below the minimum', merchant, 999n, 'amount_out_of_range'],
    ['an amount above the maximum', merchant, 50_000_001n, 'amount_out_of_range'],
  ] as const)('refuses %s before the balance is read', (_what, rules, amount, code) => {
    expect(withdrawalRefusal(request(amount), rules, undefined)?.errorCode).toBe(code);
    expect(then(decideRequestWithdrawal(request(amount), { ledger }, { ...context, merchant: rules }))).toEqual({
      refused: code,
    });
  });

  it('refuses an invalid IBAN before anything else, and records a valid one normalised', () => {
    expect(refusalOf(withdrawalIbanOf(request(10_000n, 'TR00 1234'))).errorCode).toBe('invalid_iban');
    expect(then(decideRequestWithdrawal(request(10_000n, 'TR00 1234'), { ledger }, context))).toEqual({
      refused: 'invalid_iban',
    });
    expect(withdrawalIbanOf(request(10_000n, 'tr33 0006 1005 1978 6457 8413 26'))).toBe(IBAN);
  });
});
