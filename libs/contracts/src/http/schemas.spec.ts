import type { z } from 'zod';
import {
  BanksResponseSchema,
  CALLBACK_STATUS,
  H2hCallbackSchema,
  H2hDepositRequestSchema,
  H2hDepositResponseSchema,
  H2hErrorResponseSchema,
  H2hWithdrawalRequestSchema,
  H2hWithdrawalResponseSchema,
  InfrastructureCallbackSchema,
  InfrastructureDepositErrorResponseSchema,
  InfrastructureDepositRequestSchema,
  InfrastructureDepositResponseSchema,
  InfrastructureWithdrawalErrorResponseSchema,
  InfrastructureWithdrawalRequestSchema,
  InfrastructureWithdrawalResponseSchema,
  Md5CallbackSchema,
  MerchantCallbackSchema,
  MerchantCheckStatusRequestSchema,
  MerchantDepositRequestSchema,
  MerchantDepositResponseSchema,
  MerchantErrorResponseSchema,
  MerchantSingleEndpointRequestSchema,
  MerchantWithdrawalRequestSchema,
  MerchantWithdrawalResponseSchema,
  StatusResponseSchema,
  TestAuthResponseSchema,
  merchantBodyCredentials,
  merchantCustomerName,
} from './index.js';

function without<T extends Record<string, unknown>>(body: T, field: keyof T): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body };
  delete copy[field as string];
  return copy;
}

function issuePaths(schema: z.ZodType, body: unknown): string[] {
  const result = schema.safeParse(body);
  if (result.success) return [];
  return result.error.issues.map((issue) => issue.path.join('.'));
}

const merchantDeposit = {
  ApiKey: 'mk_live_42',
  ApiSecret: 'ms_secret_42',
  transactionId: 'TX-2024-0001',
  amount: 250,
  name: 'Ayşe',
  surname: 'Yılmaz',
  username: 'ayse42',
  callback: 'https://merchant.example/callback',
  hash: 'a'.repeat(64),
};

const merchantWithdrawal = {
  apiKey: 'mk_live_42',
  apiSecret: 'ms_secret_42',
  transactionId: 'WD-2024-0001',
  amount: '1500.00',
  fullname: 'Ayşe Yılmaz',
  iban: 'TR330006100519786457841326',
};

const h2hDeposit = {
  apikey: 'ak_test_1',
  transaction_id: 'T-1001',
  hash: '2034dc8b897e75e175ffec4164866f43e43adc86f82cd2761f9fa1b2b5bf9c2d',
  amount: 250,
  fullname: 'Mehmet Demir',
  callback_url: 'https://merchant.example/h2h-callback',
};

const infraDeposit = {
  ApiKey: 'INFRA_KEY',
  OperationGuid: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  RequestId: 'REQ-9001',
  SecurityKey: 'b'.repeat(64),
  Amount: 500,
  CustomerFullName: 'Can Öztürk',
  CallbackUrl: 'https://infra.example/cb',
};

const infraWithdrawal = {
  ApiKey: 'INFRA_KEY',
  OperationGuid: '9a7b1c2d-0000-4000-8000-000000000001',
  RequestId: 'REQ-9002',
  SecurityKey: 'c'.repeat(64),
  Amount: '750.25',
  CustomerFullName: 'Can Öztürk',
  AccountNumber: 'TR330006100519786457841326',
};

describe('Merchant API requests', () => {
  it('accepts a contract-shaped deposit and turns the amount into kuruş', () => {
    const parsed = MerchantDepositRequestSchema.parse(merchantDeposit);
    expect(parsed.amount).toBe(25_000n);
    expect(parsed.transactionId).toBe('TX-2024-0001');
    expect(merchantBodyCredentials(parsed)).toEqual({ apiKey: 'mk_live_42', apiSecret: 'ms_secret_42' });
    expect(merchantCustomerName(parsed)).toBe('Ayşe Yılmaz');
  });

  it('accepts a deposit without credentials in the body (they may come from headers)', () => {
    const parsed = MerchantDepositRequestSchema.parse(without(without(merchantDeposit, 'ApiKey'), 'ApiSecret'));
    expect(merchantBodyCredentials(parsed)).toEqual({ apiKey: undefined, apiSecret: undefined });
  });

  it('accepts a deposit identified by username only', () => {
    const parsed = MerchantDepositRequestSchema.parse({ transactionId: 'T', amount: '10.00', username: 'u1' });
    expect(merchantCustomerName(parsed)).toBe('u1');
  });

  it.each(['transactionId', 'amount'] as const)('rejects a deposit without %s', (field) => {
    expect(issuePaths(MerchantDepositRequestSchema, without(merchantDeposit, field))).toContain(field);
  });

  it('rejects a deposit without any customer identity', () => {
    const body = without(without(without(merchantDeposit, 'name'), 'surname'), 'username');
    expect(issuePaths(MerchantDepositRequestSchema, body)).toContain('name');
  });

  it('rejects a bad amount and an unknown method', () => {
    expect(issuePaths(MerchantDepositRequestSchema, { ...merchantDeposit, amount: '1.234' })).toContain('amount');
    expect(issuePaths(MerchantDepositRequestSchema, { ...merchantDeposit, method: 'refund' })).toContain('method');
  });

  it('accepts a contract-shaped withdrawal with fullname', () => {
    const parsed = MerchantWithdrawalRequestSchema.parse(merchantWithdrawal);
    expect(parsed.amount).toBe(150_000n);
    expect(parsed.iban).toBe('TR330006100519786457841326');
    expect(merchantCustomerName(parsed)).toBe('Ayşe Yılmaz');
  });

  it('accepts a withdrawal with name + surname instead of fullname', () => {
    const parsed = MerchantWithdrawalRequestSchema.parse({
      ...without(merchantWithdrawal, 'fullname'),
      name: 'Ali',
      surname: 'Kaya',
    });
    expect(merchantCustomerName(parsed)).toBe('Ali Kaya');
  });

  it.each(['iban', 'transactionId', 'amount'] as const)('rejects a withdrawal without %s', (field) => {
    expect(issuePaths(MerchantWithdrawalRequestSchema, without(merchantWithdrawal, field))).toContain(field);
  });

  it('rejects a withdrawal without a recipient name', () => {
    expect(issuePaths(MerchantWithdrawalRequestSchema, without(merchantWithdrawal, 'fullname'))).toContain('fullname');
  });

  it('dispatches the single endpoint on method', () => {
    const deposit = MerchantSingleEndpointRequestSchema.parse({ ...merchantDeposit, method: 'deposit' });
    expect(deposit.method).toBe('deposit');
    const withdraw = MerchantSingleEndpointRequestSchema.parse({ ...merchantWithdrawal, method: 'withdraw' });
    expect(withdraw.method === 'withdraw' && withdraw.iban).toBe('TR330006100519786457841326');
    const status = MerchantSingleEndpointRequestSchema.parse({ method: 'checkStatus', transactionId: 'TX-1' });
    expect(status).toEqual({ method: 'checkStatus', transactionId: 'TX-1' });
    expect(MerchantCheckStatusRequestSchema.safeParse({ method: 'checkStatus' }).success).toBe(false);
    expect(MerchantSingleEndpointRequestSchema.safeParse({ ...merchantWithdrawal, method: 'deposit' }).success).toBe(
      false,
    );
    expect(MerchantSingleEndpointRequestSchema.safeParse(merchantDeposit).success).toBe(false);
  });
});

describe('Merchant API responses', () => {
  it('parses the deposit, withdrawal and error bodies', () => {
    expect(
      MerchantDepositResponseSchema.parse({
        success: true,
        message: 'Payment link created',
        data: { paymentUrl: 'https://pay.example/payment/tok_abc', transactionId: 'TX-2024-0001', id: 1001 },
      }).data.paymentUrl,
    ).toBe('https://pay.example/payment/tok_abc');
    expect(
      MerchantWithdrawalResponseSchema.safeParse({
        success: true,
        message: 'Withdrawal request received; a callback follows after approval',
        data: { transactionId: 'WD-2024-0001', id: 1002, status: 'pending' },
      }).success,
    ).toBe(true);
    expect(
      MerchantErrorResponseSchema.safeParse({
        success: false,
        message: 'Duplicate',
        errorCode: 'duplicate_transaction',
      }).success,
    ).toBe(true);
    expect(MerchantErrorResponseSchema.safeParse({ success: true, message: 'x', errorCode: 'y' }).success).toBe(false);
  });
});

describe('H2H API', () => {
  it('accepts contract-shaped requests', () => {
    expect(H2hDepositRequestSchema.parse(h2hDeposit).amount).toBe(25_000n);
    const withdrawal = { ...without(h2hDeposit, 'callback_url'), iban: 'TR330006100519786457841326' };
    expect(H2hWithdrawalRequestSchema.parse(withdrawal).iban).toBe('TR330006100519786457841326');
  });

  it.each(['apikey', 'transaction_id', 'hash', 'amount', 'fullname'] as const)(
    'rejects a deposit without %s',
    (field) => {
      expect(issuePaths(H2hDepositRequestSchema, without(h2hDeposit, field))).toContain(field);
    },
  );

  it('rejects a withdrawal without iban', () => {
    expect(issuePaths(H2hWithdrawalRequestSchema, h2hDeposit)).toContain('iban');
  });

  it('parses the responses', () => {
    expect(
      H2hDepositResponseSchema.safeParse({
        status: true,
        code: 200,
        account_name: 'Transfergate A.Ş.',
        account_iban: 'TR330006100519786457841326',
        fast: true,
        id: 'T-1001',
        transaction_id: 'T-1001',
        message: 'OK',
      }).success,
    ).toBe(true);
    expect(
      H2hWithdrawalResponseSchema.safeParse({
        status: true,
        code: 200,
        id: 17,
        transaction_id: 'T-1002',
        message: 'Request received; a callback follows after approval',
      }).success,
    ).toBe(true);
    expect(
      H2hErrorResponseSchema.safeParse({
        status: false,
        code: 401,
        message: 'Bad hash',
        errorCode: 'invalid_signature',
      }).success,
    ).toBe(true);
  });
});

describe('Infrastructure API', () => {
  it('accepts a contract-shaped deposit (also with query-string text values)', () => {
    expect(InfrastructureDepositRequestSchema.parse(infraDeposit).Amount).toBe(50_000n);
    const fromQuery = { ...infraDeposit, Amount: '500.00' };
    expect(InfrastructureDepositRequestSchema.parse(fromQuery).Amount).toBe(50_000n);
  });

  it('accepts CustomerUsername instead of CustomerFullName', () => {
    const body = { ...without(infraDeposit, 'CustomerFullName'), CustomerUsername: 'can_o' };
    expect(InfrastructureDepositRequestSchema.parse(body).CustomerUsername).toBe('can_o');
  });

  it('rejects a deposit with neither CustomerFullName nor CustomerUsername', () => {
    expect(issuePaths(InfrastructureDepositRequestSchema, without(infraDeposit, 'CustomerFullName'))).toContain(
      'CustomerFullName',
    );
  });

  it.each(['ApiKey', 'OperationGuid', 'RequestId', 'SecurityKey', 'Amount'] as const)(
    'rejects a deposit without %s',
    (field) => {
      expect(issuePaths(InfrastructureDepositRequestSchema, without(infraDeposit, field))).toContain(field);
    },
  );

  it('accepts a contract-shaped withdrawal', () => {
    const parsed = InfrastructureWithdrawalRequestSchema.parse(infraWithdrawal);
    expect(parsed.Amount).toBe(75_025n);
    expect(parsed.AccountNumber).toBe('TR330006100519786457841326');
  });

  it.each(['AccountNumber', 'CustomerFullName', 'SecurityKey'] as const)('rejects a withdrawal without %s', (field) => {
    expect(issuePaths(InfrastructureWithdrawalRequestSchema, without(infraWithdrawal, field))).toContain(field);
  });

  it('parses the responses and error bodies', () => {
    expect(
      InfrastructureDepositResponseSchema.safeParse({
        success: true,
        message: 'OK',
        data: {
          paymentLink: 'https://pay.example/payment/tok_xyz',
          requestId: 'REQ-9001',
          operationGuidBack: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
        },
      }).success,
    ).toBe(true);
    expect(
      InfrastructureWithdrawalResponseSchema.safeParse({
        Success: true,
        Message: 'Withdrawal request received',
        OperationGuidBack: '9a7b1c2d-0000-4000-8000-000000000001',
      }).success,
    ).toBe(true);
    expect(
      InfrastructureDepositErrorResponseSchema.safeParse({
        success: false,
        message: 'Invalid SecurityKey',
        errorCode: 'invalid_signature',
      }).success,
    ).toBe(true);
    expect(
      InfrastructureWithdrawalErrorResponseSchema.safeParse({
        Success: false,
        Message: 'Insufficient balance',
        errorCode: 'insufficient_balance',
      }).success,
    ).toBe(true);
    expect(
      InfrastructureWithdrawalErrorResponseSchema.safeParse({ success: false, message: 'x', errorCode: 'y' }).success,
    ).toBe(false);
  });
});

describe('test-auth, banks and status responses', () => {
  it('parses the credential test success and failure bodies', () => {
    expect(TestAuthResponseSchema.parse({ success: true, providerId: 3, providerName: 'Demo provider' })).toEqual({
      success: true,
      providerId: 3,
      providerName: 'Demo provider',
    });
    expect(
      TestAuthResponseSchema.safeParse({
        success: false,
        message: 'Invalid API credentials',
        errorCode: 'invalid_credentials',
      }).success,
    ).toBe(true);
    expect(TestAuthResponseSchema.safeParse({ success: true, providerId: 1.5, providerName: 'x' }).success).toBe(false);
  });

  it('parses the bank list', () => {
    const body = {
      success: true,
      data: [
        { id: 'garanti', name: 'Garanti BBVA', code: '0062', fast: true },
        { id: 'ziraat', name: 'Ziraat Bankası', code: '0010', fast: false },
      ],
    };
    expect(BanksResponseSchema.parse(body).data).toHaveLength(2);
    expect(BanksResponseSchema.safeParse({ success: true, data: [{ id: 'x', name: 'X', code: '1' }] }).success).toBe(
      false,
    );
  });

  it('parses a status body', () => {
    expect(
      StatusResponseSchema.safeParse({
        success: true,
        id: 1001,
        uuid: '0b9c3c1e-8a45-4a53-9a3a-1b2c3d4e5f60',
        transactionId: 'TX-2024-0001',
        type: 'deposit',
        status: 'awaiting_payment',
        amount: 250,
        originalAmount: 250,
        currency: 'TRY',
        createdAt: '2024-05-01T12:00:00.000Z',
        updatedAt: '2024-05-01T12:00:00.000Z',
      }).success,
    ).toBe(true);
  });
});

describe('outgoing callbacks', () => {
  it('parses the Merchant API callback', () => {
    expect(MerchantCallbackSchema.safeParse({ transactionId: 'TX-1', amount: 250.5, status: 'confirm' }).success).toBe(
      true,
    );
    expect(MerchantCallbackSchema.safeParse({ transactionId: 'TX-1', amount: 250.5, status: 'cancel' }).success).toBe(
      true,
    );
    expect(MerchantCallbackSchema.safeParse({ transactionId: 'TX-1', amount: 250.5, status: 'approved' }).success).toBe(
      false,
    );
  });

  const h2hCallback = {
    type: 'deposit',
    transactionId: 'T-1001',
    status: 'APPROVED',
    amount: 250,
    depositId: 1001,
    timestamp: '2024-05-01T12:00:00.000Z',
    uuid: 'T-1001',
    metadata: { userID: 'u-77', username: 'mehmet', senderName: 'Mehmet Demir' },
  };

  it('parses the H2H callback, with reason when rejected', () => {
    expect(H2hCallbackSchema.parse(h2hCallback).reason).toBeUndefined();
    const rejected = { ...h2hCallback, type: 'withdrawal', status: 'REJECTED', reason: 'IBAN mismatch' };
    expect(H2hCallbackSchema.parse(rejected).reason).toBe('IBAN mismatch');
  });

  it('rejects an H2H callback with a non-UTC timestamp or a fractional depositId', () => {
    expect(issuePaths(H2hCallbackSchema, { ...h2hCallback, timestamp: '2024-05-01T15:00:00+03:00' })).toContain(
      'timestamp',
    );
    expect(issuePaths(H2hCallbackSchema, { ...h2hCallback, depositId: 1.5 })).toContain('depositId');
    expect(issuePaths(H2hCallbackSchema, without(h2hCallback, 'metadata'))).toContain('metadata');
  });

  const infraCallback = {
    CustomerFullName: 'Can Öztürk',
    Amount: 500,
    CustomerMemberId: 'member-12',
    RequestId: 'REQ-9001',
    SecurityKey: 'b'.repeat(64),
    Status: true,
    Message: 'confirmed',
    OperationGuidBack: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  };

  it('parses the PascalCase infrastructure callback and ties Status to Message', () => {
    expect(InfrastructureCallbackSchema.safeParse(infraCallback).success).toBe(true);
    expect(
      InfrastructureCallbackSchema.safeParse({ ...infraCallback, Status: false, Message: 'declined' }).success,
    ).toBe(true);
    expect(issuePaths(InfrastructureCallbackSchema, { ...infraCallback, Status: false })).toContain('Message');
  });

  it('parses the MD5-signed callback', () => {
    const body = {
      transactionId: 'TX-77',
      amount: 250.5,
      status: 'confirmed',
      type: 'deposit',
      signature: '0123456789abcdef0123456789abcdef',
    };
    expect(Md5CallbackSchema.safeParse(body).success).toBe(true);
    expect(issuePaths(Md5CallbackSchema, { ...body, signature: 'not-md5' })).toContain('signature');
  });

  it('names each format’s status words', () => {
    expect(CALLBACK_STATUS.merchant).toEqual({ approved: 'confirm', rejected: 'cancel' });
    expect(CALLBACK_STATUS.h2h).toEqual({ approved: 'APPROVED', rejected: 'REJECTED' });
    expect(CALLBACK_STATUS.infrastructure).toEqual({ approved: 'confirmed', rejected: 'declined' });
  });
});
