import {
  H2hDepositRequestSchema,
  H2hWithdrawalRequestSchema,
  InfrastructureDepositRequestSchema,
  InfrastructureWithdrawalRequestSchema,
  MerchantDepositRequestSchema,
  MerchantWithdrawalRequestSchema,
  h2hCustomerFields,
  parseBody,
} from '@transfergate/contracts';
import {
  h2hDepositRequest,
  h2hWithdrawalRequest,
  infrastructureDepositRequest,
  infrastructureWithdrawalRequest,
  merchantDepositRequest,
  merchantWithdrawalRequest,
  normalizedIban,
} from './form-requests.js';

const SOURCE = { ip: '10.0.0.7', requestId: 'req-1' };
const IBAN = 'TR330006100519786457841326';

describe('H2H requests', () => {
  const BODY = {
    apikey: 'ak_1',
    transaction_id: 'H-1',
    hash: 'x',
    amount: '150.50',
    fullname: 'Ayşe Yılmaz',
  };

  it('maps a deposit: amount in kuruş, the customer, the callback URL and bank when sent', () => {
    const body = { ...BODY, callback_url: 'https://m.example/cb', bank_code: '00010', user_id: 'u-1' };
    const input = parseBody(H2hDepositRequestSchema, body);
    expect(h2hDepositRequest(input, h2hCustomerFields(body), SOURCE)).toEqual({
      form: 'h2h',
      externalId: 'H-1',
      amountKurus: 15_050n,
      customer: { fullName: 'Ayşe Yılmaz', userId: 'u-1' },
      fingerprint: {
        transactionId: 'H-1',
        amountKurus: 15_050n,
        fullname: 'Ayşe Yılmaz',
        callbackUrl: 'https://m.example/cb',
        userId: 'u-1',
      },
      callbackUrl: 'https://m.example/cb',
      preferredBankCode: '00010',
      ip: '10.0.0.7',
      requestId: 'req-1',
    });
  });

  it('leaves out what was not sent, but fingerprints an absent callback URL the same every time', () => {
    const mapped = h2hDepositRequest(parseBody(H2hDepositRequestSchema, BODY), {}, SOURCE);
    expect(mapped).not.toHaveProperty('callbackUrl');
    expect(mapped).not.toHaveProperty('preferredBankCode');
    expect(mapped.customer).toEqual({ fullName: 'Ayşe Yılmaz' });
    expect(Object.keys(mapped.fingerprint).sort()).toEqual(['amountKurus', 'callbackUrl', 'fullname', 'transactionId']);
  });

  it('maps a withdrawal with the IBAN normalised', () => {
    const body = { ...BODY, iban: ' tr33 0006 1005 1978 6457 8413 26 ', username: 'ayse' };
    const input = parseBody(H2hWithdrawalRequestSchema, body);
    expect(h2hWithdrawalRequest(input, h2hCustomerFields(body), SOURCE)).toMatchObject({
      form: 'h2h',
      externalId: 'H-1',
      amountKurus: 15_050n,
      iban: IBAN,
      customer: { fullName: 'Ayşe Yılmaz', username: 'ayse' },
      fingerprint: { transactionId: 'H-1', amountKurus: 15_050n, username: 'ayse' },
    });
  });
});

describe('Merchant requests', () => {
  const BODY = { apiKey: 'ak_m', apiSecret: 'sk_m', transactionId: 'M-1', amount: 250 };

  it('maps a deposit: the customer from name + surname, the callback echoed (never called), return URL and bank', () => {
    const input = parseBody(MerchantDepositRequestSchema, {
      ...BODY,
      name: 'Ayşe',
      surname: 'Yılmaz',
      username: 'ayse',
      callback: 'https://m.example/ignored',
      bankCode: '00062',
    });
    expect(merchantDepositRequest(input, 'https://m.example/back', SOURCE)).toEqual({
      form: 'merchant',
      externalId: 'M-1',
      amountKurus: 25_000n,
      customer: { fullName: 'Ayşe Yılmaz', username: 'ayse' },
      fingerprint: { transactionId: 'M-1', amountKurus: 25_000n, fullName: 'Ayşe Yılmaz', username: 'ayse' },
      echo: { callback: 'https://m.example/ignored' },
      returnUrl: 'https://m.example/back',
      preferredBankCode: '00062',
      ip: '10.0.0.7',
      requestId: 'req-1',
    });
  });

  it('names the customer by username alone when that is all there is', () => {
    const input = parseBody(MerchantDepositRequestSchema, { ...BODY, username: 'ayse' });
    expect(merchantDepositRequest(input, undefined, SOURCE)).toMatchObject({
      customer: { fullName: 'ayse', username: 'ayse' },
      echo: {},
    });
  });

  it('maps a withdrawal: fullname wins over name, the IBAN normalised, the username not fingerprinted', () => {
    const input = parseBody(MerchantWithdrawalRequestSchema, {
      ...BODY,
      fullname: 'Mehmet Demir',
      name: 'Other',
      username: 'md',
      iban: IBAN.toLowerCase(),
    });
    expect(merchantWithdrawalRequest(input, SOURCE)).toEqual({
      form: 'merchant',
      externalId: 'M-1',
      amountKurus: 25_000n,
      customer: { fullName: 'Mehmet Demir', username: 'md' },
      iban: IBAN,
      fingerprint: { transactionId: 'M-1', amountKurus: 25_000n, fullName: 'Mehmet Demir' },
      echo: {},
      ip: '10.0.0.7',
      requestId: 'req-1',
    });
  });
});

describe('Infrastructure requests', () => {
  const BODY = { ApiKey: 'ak_i', OperationGuid: 'og-1', RequestId: 'I-1', SecurityKey: 'sec', Amount: 99.99 };

  it('maps a deposit: the OperationGuid fingerprinted, SecurityKey and customer ids echoed for the callback', () => {
    const input = parseBody(InfrastructureDepositRequestSchema, {
      ...BODY,
      CustomerFullName: 'Ayşe Yılmaz',
      CustomerUsername: 'ayse',
      CustomerMemberId: 'member-9',
      BankCode: '00046',
    });
    expect(infrastructureDepositRequest(input, undefined, SOURCE)).toEqual({
      form: 'infrastructure',
      externalId: 'I-1',
      amountKurus: 9_999n,
      customer: { fullName: 'Ayşe Yılmaz', username: 'ayse', userId: 'member-9' },
      fingerprint: { requestId: 'I-1', amountKurus: 9_999n, fullName: 'Ayşe Yılmaz', operationGuid: 'og-1' },
      echo: { OperationGuid: 'og-1', SecurityKey: 'sec', CustomerMemberId: 'member-9', CustomerUsername: 'ayse' },
      preferredBankCode: '00046',
      ip: '10.0.0.7',
      requestId: 'req-1',
    });
  });

  it('names the customer by CustomerUsername when no full name is sent', () => {
    const input = parseBody(InfrastructureDepositRequestSchema, { ...BODY, CustomerUsername: 'ayse' });
    expect(infrastructureDepositRequest(input, 'https://m.example/back', SOURCE)).toMatchObject({
      customer: { fullName: 'ayse', username: 'ayse' },
      fingerprint: { fullName: 'ayse' },
      echo: { OperationGuid: 'og-1', SecurityKey: 'sec', CustomerUsername: 'ayse' },
      returnUrl: 'https://m.example/back',
    });
  });

  it('maps a withdrawal: AccountNumber is the IBAN, normalised', () => {
    const input = parseBody(InfrastructureWithdrawalRequestSchema, {
      ...BODY,
      CustomerFullName: 'Mehmet Demir',
      AccountNumber: `${IBAN.slice(0, 4)} ${IBAN.slice(4)}`,
    });
    expect(infrastructureWithdrawalRequest(input, SOURCE)).toEqual({
      form: 'infrastructure',
      externalId: 'I-1',
      amountKurus: 9_999n,
      customer: { fullName: 'Mehmet Demir' },
      iban: IBAN,
      fingerprint: { requestId: 'I-1', amountKurus: 9_999n, fullName: 'Mehmet Demir', operationGuid: 'og-1' },
      echo: { OperationGuid: 'og-1', SecurityKey: 'sec' },
      ip: '10.0.0.7',
      requestId: 'req-1',
    });
  });
});

describe('normalizedIban', () => {
  it('drops every kind of whitespace and upper-cases', () => {
    expect(normalizedIban(' tr33\t0006\n1005 1978 6457 8413 26 ')).toBe(IBAN);
  });
});
