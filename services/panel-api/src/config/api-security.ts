/**
 * What /api/config/api-security describes: how gateway callers authenticate. Names and rules only,
 * never a key or a secret (the gateway's credential reader and libs/contracts/src/signatures are the
 * implementations this mirrors).
 */
export const CREDENTIAL_SPELLINGS = [
  { part: 'API key', header: 'x-api-key', bodyOrQuery: ['ApiKey', 'apiKey', 'apikey'] },
  { part: 'API secret', header: 'x-api-secret', bodyOrQuery: ['ApiSecret', 'apiSecret', 'apisecret'] },
];

export const SIGNATURE_RULES = [
  {
    form: 'merchant',
    field: 'hash',
    required: false,
    rule: 'SHA256(apiKey + transactionId + apiSecret + round(amount))',
  },
  { form: 'h2h', field: 'hash', required: true, rule: 'SHA256(apikey + transaction_id + apiSecret + round(amount))' },
  { form: 'infrastructure', field: 'SecurityKey', required: true, rule: 'SHA256(ApiKey + ApiSecret + OperationGuid)' },
  {
    form: 'md5 callback (outgoing)',
    field: 'signature',
    required: true,
    rule: 'MD5(transactionId + status + amount + type + apiSecret)',
  },
];

/** Gateway paths per API form (every one also under /api). */
export const FORM_ENDPOINTS = {
  h2h: { deposit: 'POST /deposit/bank', withdrawal: 'POST /withdrawal/bank' },
  merchant: {
    deposit: 'POST /deposit (or POST / with method=deposit)',
    withdrawal: 'POST /withdrawal (or POST / with method=withdraw)',
  },
  infrastructure: {
    deposit: 'GET or POST /deposits/deposit-request',
    withdrawal: 'GET or POST /withdraws/withdraw-request',
  },
} as const;
