import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import { kurusFrom } from '../money/kurus.js';
import { h2hHash, infrastructureSecurityKey, md5CallbackSignature, merchantHash } from '../signatures/rules.js';
import type { ErrorForm } from './components.js';

/**
 * The published credentials of the `--demo` providers, one per API form. The demo provisions exactly
 * these, and the documentation's examples are signed with them, so that every example can be sent as
 * it is to `npm start -- --demo`.
 */
export const DEMO_CREDENTIALS = {
  merchant: { apiKey: 'demo_merchant_key', apiSecret: 'demo_merchant_secret' },
  h2h: { apiKey: 'demo_h2h_key', apiSecret: 'demo_h2h_secret' },
  infrastructure: { apiKey: 'demo_infra_key', apiSecret: 'demo_infra_secret' },
} as const;

/**
 * Realistic examples of every body, for the documentation. Each signature is computed with the
 * contract's own signature functions from the example values and the demo's credentials of the
 * example's form, so an example can be sent as it is to a `--demo` process.
 */
export const OPENAPI_EXAMPLE_CREDENTIALS = DEMO_CREDENTIALS;
const PAYMENT_PAGE = 'https://pay.transfergate.example';
const RECEIVING_ACCOUNT = { holder: 'Transfer Ltd', iban: 'TR330006100519786457841326' };
const NOW = '2025-05-01T09:30:00.000Z';
const LATER = '2025-05-01T09:41:12.000Z';

export interface Example {
  summary: string;
  description?: string;
  value: unknown;
}

// H2H

const { apiKey: h2hKey, apiSecret: h2hSecret } = DEMO_CREDENTIALS.h2h;

const H2H_DEPOSIT_ID = 'H2H-20250501-0001';
const H2H_DEPOSIT_AMOUNT = 1250.5;
const h2hDepositHash = h2hHash(h2hKey, H2H_DEPOSIT_ID, h2hSecret, kurusFrom(H2H_DEPOSIT_AMOUNT));
const hashNote = (id: string, amount: number) =>
  `hash = SHA256("${h2hKey}" + "${id}" + "${h2hSecret}" + "${Math.round(amount)}") with the example secret ${h2hSecret}.`;

export const H2H_DEPOSIT_REQUEST_EXAMPLES: Record<string, Example> = {
  minimal: {
    summary: 'Deposit of 1,250.50 TRY',
    description: hashNote(H2H_DEPOSIT_ID, H2H_DEPOSIT_AMOUNT),
    value: {
      apikey: h2hKey,
      transaction_id: H2H_DEPOSIT_ID,
      hash: h2hDepositHash,
      amount: H2H_DEPOSIT_AMOUNT,
      fullname: 'Ayşe Yılmaz',
    },
  },
  withCallbackUrl: {
    summary: 'With callback_url (must equal the registered URL)',
    description: hashNote(H2H_DEPOSIT_ID, H2H_DEPOSIT_AMOUNT),
    value: {
      apikey: h2hKey,
      transaction_id: H2H_DEPOSIT_ID,
      hash: h2hDepositHash,
      amount: H2H_DEPOSIT_AMOUNT,
      fullname: 'Ayşe Yılmaz',
      callback_url: 'https://merchant.example.com/callbacks/deposit',
    },
  },
};

export const H2H_DEPOSIT_RESPONSE_EXAMPLES: Record<string, Example> = {
  created: {
    summary: 'Pay into this account',
    value: {
      status: true,
      code: 200,
      account_name: RECEIVING_ACCOUNT.holder,
      account_iban: RECEIVING_ACCOUNT.iban,
      fast: true,
      id: H2H_DEPOSIT_ID,
      transaction_id: H2H_DEPOSIT_ID,
      message: 'Deposit request received; pay the amount to the account shown.',
    },
  },
};

const H2H_WITHDRAWAL_ID = 'H2H-W-20250501-0002';
const H2H_WITHDRAWAL_AMOUNT = 500;

export const H2H_WITHDRAWAL_REQUEST_EXAMPLES: Record<string, Example> = {
  withdrawal: {
    summary: 'Withdrawal of 500 TRY',
    description: hashNote(H2H_WITHDRAWAL_ID, H2H_WITHDRAWAL_AMOUNT),
    value: {
      apikey: h2hKey,
      transaction_id: H2H_WITHDRAWAL_ID,
      hash: h2hHash(h2hKey, H2H_WITHDRAWAL_ID, h2hSecret, kurusFrom(H2H_WITHDRAWAL_AMOUNT)),
      amount: H2H_WITHDRAWAL_AMOUNT,
      fullname: 'Mehmet Demir',
      iban: 'TR560001200945200058000123',
    },
  },
};

export const H2H_WITHDRAWAL_RESPONSE_EXAMPLES: Record<string, Example> = {
  received: {
    summary: 'Queued for approval',
    value: {
      status: true,
      code: 200,
      id: 1042,
      transaction_id: H2H_WITHDRAWAL_ID,
      message: 'Withdrawal request received; a callback follows after approval.',
    },
  },
};

// Infrastructure

const { apiKey: infraKey, apiSecret: infraSecret } = DEMO_CREDENTIALS.infrastructure;

const OPERATION_GUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const WITHDRAW_OPERATION_GUID = '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d';
const INFRA_DEPOSIT_ID = 'REQ-20250501-9001';
const INFRA_WITHDRAWAL_ID = 'REQ-20250501-9002';
const infraDepositSecurityKey = infrastructureSecurityKey(infraKey, infraSecret, OPERATION_GUID);
const securityKeyNote = (guid: string) =>
  `SecurityKey = SHA256("${infraKey}" + "${infraSecret}" + "${guid}") with the example secret ${infraSecret}.`;

export const INFRASTRUCTURE_DEPOSIT_REQUEST_EXAMPLES: Record<string, Example> = {
  deposit: {
    summary: 'Deposit of 750 TRY',
    description: securityKeyNote(OPERATION_GUID),
    value: {
      ApiKey: infraKey,
      OperationGuid: OPERATION_GUID,
      RequestId: INFRA_DEPOSIT_ID,
      SecurityKey: infraDepositSecurityKey,
      Amount: 750,
      CustomerFullName: 'Can Öztürk',
      CustomerMemberId: 'member-12',
    },
  },
};

export const INFRASTRUCTURE_DEPOSIT_RESPONSE_EXAMPLES: Record<string, Example> = {
  created: {
    summary: 'Payment link',
    value: {
      success: true,
      message: 'Deposit request created',
      data: {
        paymentLink: `${PAYMENT_PAGE}/payment/p_8KxQ2vR7mT4wZ1nB`,
        requestId: INFRA_DEPOSIT_ID,
        operationGuidBack: OPERATION_GUID,
      },
    },
  },
};

export const INFRASTRUCTURE_WITHDRAWAL_REQUEST_EXAMPLES: Record<string, Example> = {
  withdrawal: {
    summary: 'Withdrawal of 300 TRY',
    description: securityKeyNote(WITHDRAW_OPERATION_GUID),
    value: {
      ApiKey: infraKey,
      OperationGuid: WITHDRAW_OPERATION_GUID,
      RequestId: INFRA_WITHDRAWAL_ID,
      SecurityKey: infrastructureSecurityKey(infraKey, infraSecret, WITHDRAW_OPERATION_GUID),
      Amount: '300.00',
      CustomerFullName: 'Can Öztürk',
      AccountNumber: 'TR430006701000000012345678',
    },
  },
};

export const INFRASTRUCTURE_WITHDRAWAL_RESPONSE_EXAMPLES: Record<string, Example> = {
  received: {
    summary: 'Received',
    value: { Success: true, Message: 'Withdrawal request received', OperationGuidBack: WITHDRAW_OPERATION_GUID },
  },
};

// Merchant API

const { apiKey, apiSecret } = DEMO_CREDENTIALS.merchant;

const MERCHANT_DEPOSIT_ID = 'M-20250501-0003';
const MERCHANT_WITHDRAWAL_ID = 'M-20250501-0004';
const merchantDepositFields = {
  transactionId: MERCHANT_DEPOSIT_ID,
  amount: 250,
  name: 'Ayşe',
  surname: 'Yılmaz',
  username: 'ayse.y',
  hash: merchantHash(apiKey, MERCHANT_DEPOSIT_ID, apiSecret, kurusFrom(250)),
};
const merchantWithdrawalFields = {
  transactionId: MERCHANT_WITHDRAWAL_ID,
  amount: '300.00',
  fullname: 'Mehmet Demir',
  iban: 'TR850004600123888000012345',
};
const merchantHashNote = `Optional hash = SHA256("${apiKey}" + "${MERCHANT_DEPOSIT_ID}" + "${apiSecret}" + "250").`;

export const MERCHANT_DEPOSIT_REQUEST_EXAMPLES: Record<string, Example> = {
  headers: {
    summary: 'Credentials in the x-api-key / x-api-secret headers (recommended)',
    description: merchantHashNote,
    value: merchantDepositFields,
  },
  body: {
    summary: 'Credentials in the body',
    value: { ApiKey: apiKey, ApiSecret: apiSecret, ...merchantDepositFields },
  },
};

const merchantDepositResponse = {
  success: true,
  message: 'Deposit created; send the customer to the payment page.',
  data: { paymentUrl: `${PAYMENT_PAGE}/payment/p_3JtY6cW9eL2sH5aD`, transactionId: MERCHANT_DEPOSIT_ID, id: 1043 },
};
const merchantWithdrawalResponse = {
  success: true,
  message: 'Withdrawal request received; it waits for approval and a callback follows.',
  data: { transactionId: MERCHANT_WITHDRAWAL_ID, id: 1044, status: 'pending' },
};

export const MERCHANT_DEPOSIT_RESPONSE_EXAMPLES: Record<string, Example> = {
  created: { summary: 'Payment page URL', value: merchantDepositResponse },
};

export const MERCHANT_WITHDRAWAL_REQUEST_EXAMPLES: Record<string, Example> = {
  withdrawal: { summary: 'Withdrawal of 300 TRY', value: merchantWithdrawalFields },
};

export const MERCHANT_WITHDRAWAL_RESPONSE_EXAMPLES: Record<string, Example> = {
  queued: { summary: 'Queued for approval', value: merchantWithdrawalResponse },
};

const statusResponse = {
  success: true,
  id: 1043,
  uuid: '6f1c2b7e-8d4a-5e3f-9a1b-2c3d4e5f6a7b',
  transactionId: MERCHANT_DEPOSIT_ID,
  type: 'deposit',
  status: 'awaiting_payment',
  amount: 250,
  originalAmount: 250,
  currency: 'TRY',
  createdAt: NOW,
  updatedAt: LATER,
};

export const SINGLE_ENDPOINT_REQUEST_EXAMPLES: Record<string, Example> = {
  deposit: { summary: 'method: deposit', value: { method: 'deposit', ...merchantDepositFields } },
  withdraw: { summary: 'method: withdraw', value: { method: 'withdraw', ...merchantWithdrawalFields } },
  checkStatus: { summary: 'method: checkStatus', value: { method: 'checkStatus', transactionId: MERCHANT_DEPOSIT_ID } },
};

export const SINGLE_ENDPOINT_RESPONSE_EXAMPLES: Record<string, Example> = {
  deposit: { summary: 'method: deposit', value: merchantDepositResponse },
  withdraw: { summary: 'method: withdraw', value: merchantWithdrawalResponse },
  checkStatus: { summary: 'method: checkStatus', value: statusResponse },
};

// Status, banks, test-auth, health

export const STATUS_RESPONSE_EXAMPLES: Record<string, Example> = {
  deposit: { summary: 'A deposit waiting for the transfer', value: statusResponse },
};

export const BANKS_RESPONSE_EXAMPLES: Record<string, Example> = {
  banks: {
    summary: 'Banks with an active receiving account',
    value: {
      success: true,
      data: [
        { id: '00012', name: 'Halkbank', code: '00012', fast: true },
        { id: '00061', name: 'Ziraat Bankası', code: '00061', fast: true },
      ],
    },
  },
};

export const CREDENTIALS_BODY_EXAMPLES: Record<string, Example> = {
  body: { summary: 'Credentials in the body', value: { ApiKey: apiKey, ApiSecret: apiSecret } },
};

export const TEST_AUTH_RESPONSE_EXAMPLES: Record<string, Example> = {
  matched: { summary: 'Credentials match', value: { success: true, providerId: 1, providerName: 'demo-merchant-api' } },
};

export const HEALTH_RESPONSE_EXAMPLES: Record<string, Example> = {
  ok: { summary: 'Up', value: { status: 'ok', service: 'transfergate', version: '0.1.0', uptimeSeconds: 86400 } },
};

export const MODULE_HEALTH_RESPONSE_EXAMPLES: Record<string, Example> = {
  ok: {
    summary: 'Database reachable',
    value: { status: 'ok', module: 'eqopay', database: 'ok', databaseLatencyMs: 2 },
  },
};

// Outgoing callbacks

export const CALLBACK_EXAMPLES: Record<'merchant' | 'h2h' | 'infrastructure' | 'md5', Record<string, Example>> = {
  merchant: {
    confirm: { summary: 'Approved', value: { transactionId: MERCHANT_DEPOSIT_ID, amount: 250, status: 'confirm' } },
    cancel: { summary: 'Rejected', value: { transactionId: MERCHANT_DEPOSIT_ID, amount: 250, status: 'cancel' } },
  },
  h2h: {
    approved: {
      summary: 'Deposit approved',
      value: {
        type: 'deposit',
        transactionId: H2H_DEPOSIT_ID,
        status: 'APPROVED',
        amount: H2H_DEPOSIT_AMOUNT,
        depositId: 1041,
        timestamp: LATER,
        uuid: H2H_DEPOSIT_ID,
        metadata: { userID: '', username: '', senderName: 'Ayşe Yılmaz' },
      },
    },
    rejected: {
      summary: 'Withdrawal rejected',
      value: {
        type: 'withdrawal',
        transactionId: H2H_WITHDRAWAL_ID,
        status: 'REJECTED',
        amount: H2H_WITHDRAWAL_AMOUNT,
        depositId: 1042,
        timestamp: LATER,
        uuid: H2H_WITHDRAWAL_ID,
        metadata: { userID: '', username: '', senderName: 'Mehmet Demir' },
        reason: 'IBAN holder name does not match',
      },
    },
  },
  infrastructure: {
    confirmed: {
      summary: 'Approved',
      value: {
        CustomerFullName: 'Can Öztürk',
        Amount: 750,
        CustomerMemberId: 'member-12',
        RequestId: INFRA_DEPOSIT_ID,
        SecurityKey: infraDepositSecurityKey,
        Status: true,
        Message: 'confirmed',
        OperationGuidBack: OPERATION_GUID,
      },
    },
  },
  md5: {
    confirmed: {
      summary: 'Approved',
      description: `signature = MD5("${MERCHANT_DEPOSIT_ID}" + "confirmed" + "250" + "deposit" + "${apiSecret}").`,
      value: {
        transactionId: MERCHANT_DEPOSIT_ID,
        amount: 250,
        status: 'confirmed',
        type: 'deposit',
        signature: md5CallbackSignature(MERCHANT_DEPOSIT_ID, 'confirmed', '250', 'deposit', apiSecret),
      },
    },
  },
};

// Incoming webhooks

export const INCOMING_WEBHOOK_REQUEST_EXAMPLES: Record<string, Example> = {
  approved: {
    summary: 'Approve by your transaction id, stating the amount paid',
    value: { transactionId: 'DEMO-1', status: 'approved', amount: 250 },
  },
  rejected: {
    summary: 'Reject by our integer id, with a reason',
    value: { depositId: 1, status: 'declined', reason: 'sender name does not match' },
  },
};

export const INCOMING_WEBHOOK_RESPONSE_EXAMPLES: Record<string, Example> = {
  applied: {
    summary: 'Applied',
    value: {
      success: true,
      message: 'approved',
      transactionId: 'DEMO-1',
      id: 1,
      uuid: '3f2b8c1e-0d4a-4c1b-9a6e-2b7d5f1e8a90',
      type: 'deposit',
      status: 'approved',
    },
  },
};

// Errors

/** A typical message for each error code (a new code fails the typecheck here until it has one). */
export const ERROR_EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  validation_failed: 'invalid request: transaction_id is required; fullname must not be empty',
  malformed_json: 'request body is not valid JSON',
  invalid_amount: 'invalid request: amount has more than 2 decimals',
  invalid_iban: 'IBAN check digits do not match (mod 97)',
  invalid_credentials: 'invalid API credentials',
  invalid_signature: 'hash does not match SHA256(apikey + transaction_id + secret + round(amount))',
  authentication_required: 'a bearer token is required',
  invalid_token: 'the access token is invalid or expired',
  refresh_token_reused: 'refresh token reused: the session is revoked',
  invalid_two_factor_code: 'the two-factor code is not valid',
  two_factor_code_used:
    'this sign-in was already completed (a repeated verify of the same login); the session it opened stands',
  permission_denied: 'your role lacks the permission transactions.approve',
  two_factor_setup_required:
    'this account must set up two-factor authentication first: POST /api/auth/2fa/setup/init with username and password',
  weak_password: 'the new password must have at least 12 characters',
  account_locked: 'too many failed attempts; try again later',
  ip_not_allowed: 'caller IP is not allowed for this provider',
  form_not_enabled: "this provider's infrastructure uses the merchant API, not h2h",
  provider_disabled: 'provider is disabled',
  merchant_disabled: 'merchant is disabled',
  risk_refused: 'the request was refused',
  sandbox_only:
    'this provider is not a sandbox provider: its transactions are decided by operators (an admin sets sandbox on test providers)',
  callback_url_mismatch: 'callback_url must equal the callback URL registered for this integration',
  callback_url_refused:
    'callback_deposit refused: callback URL http://127.0.0.1:5432: 127.0.0.1 is a loopback address; callbacks go to public addresses only (CALLBACK_ALLOWED_TARGETS allows others)',
  return_url_refused:
    'returnUrl https://elsewhere.example/back is not on an origin registered for this integration (https://shop.example)',
  not_found: 'Cannot find /test-auth',
  transaction_not_found: 'no transaction M-20250501-0003 for this provider',
  method_not_allowed: 'GET is not allowed on /deposit/bank; allowed: POST',
  duplicate_transaction: 'transaction id already used with a different payload',
  concurrency_conflict: 'the transaction changed concurrently; retry',
  already_exists: 'this API key belongs to another provider',
  payload_too_large: 'request body too large',
  amount_out_of_range: 'amount is outside the allowed range 10.00..500000.00 TRY',
  insufficient_balance: 'merchant balance does not cover amount and fee',
  invalid_state_transition: 'the transaction is not in a state that allows this',
  transaction_final: 'the transaction is already final',
  operation_guid_reused: 'this OperationGuid was already used for another request: use a new GUID per request',
  amount_mismatch: "the paid amount differs from the transaction's: not approved, held for an operator",
  statement_refused: 'statement refused: row 14: not an amount: "1.500,001"',
  line_decided: 'the statement line is matched already',
  amount_change_pending:
    'TG-12: an amount change to 15000.00 TRY waits for a second operator: approve or reject it first',
  amount_change_not_pending: 'TG-12: no amount change waits under this request',
  four_eyes_same_operator:
    'TG-12: the amount change needs a second operator; the operator who asked for it cannot decide it',
  rate_limited: 'rate limit of 600 requests per minute reached; retry after 1 minute',
  no_receiving_account: 'no receiving bank account can take this amount now',
  unavailable: 'service unavailable',
  internal_error: 'internal error',
};

/** The body the gateway sends for `code` in the shape of `form` (as the error filter builds it). */
export function errorExample(form: ErrorForm, code: ErrorCode): Record<string, unknown> {
  const status = ERROR_CODES[code];
  const message = ERROR_EXAMPLE_MESSAGES[code];
  const details =
    code === 'validation_failed'
      ? {
          details: {
            fields: [
              { field: 'transaction_id', problem: 'is required' },
              { field: 'fullname', problem: 'must not be empty' },
            ],
          },
        }
      : {};
  switch (form) {
    case 'h2h':
      return { status: false, code: status, message, errorCode: code, ...details };
    case 'infrastructureWithdrawal':
      return { Success: false, Message: message, errorCode: code, ...details };
    case 'merchant':
    case 'infrastructureDeposit':
    case 'testAuth':
      return { success: false, message, errorCode: code, ...details };
  }
}
