import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import { BankItemSchema, BanksResponseSchema } from '../http/banks.js';
import {
  H2hCallbackSchema,
  InfrastructureCallbackSchema,
  MerchantCallbackSchema,
  Md5CallbackSchema,
} from '../http/callbacks.js';
import {
  H2hDepositRequestSchema,
  H2hDepositResponseSchema,
  H2hErrorResponseSchema,
  H2hWithdrawalRequestSchema,
  H2hWithdrawalResponseSchema,
} from '../http/h2h.js';
import {
  InfrastructureDepositErrorResponseSchema,
  InfrastructureDepositRequestSchema,
  InfrastructureDepositResponseSchema,
  InfrastructureWithdrawalErrorResponseSchema,
  InfrastructureWithdrawalRequestSchema,
  InfrastructureWithdrawalResponseSchema,
} from '../http/infrastructure.js';
import {
  MerchantCheckStatusRequestSchema,
  MerchantDepositRequestSchema,
  MerchantDepositResponseSchema,
  MerchantErrorResponseSchema,
  MerchantSingleEndpointRequestSchema,
  MerchantWithdrawalRequestSchema,
  MerchantWithdrawalResponseSchema,
  StatusRequestFieldsSchema,
} from '../http/merchant.js';
import { ModuleHealthResponseSchema } from '../http/module-health.js';
import { HealthResponseSchema, StatusResponseSchema } from '../http/status.js';
import { TestAuthFailureResponseSchema, TestAuthSuccessResponseSchema } from '../http/test-auth.js';
import { IncomingWebhookRequestSchema, IncomingWebhookResponseSchema } from '../http/webhooks.js';
import { SandboxActionRequestSchema } from '../http/sandbox.js';
import { AmountSchema } from '../money/kurus.js';

/**
 * The components of the OpenAPI document: the contract's own zod schemas, each under a stable name.
 * The few schemas defined here exist only to document what the wire already carries (the error
 * code enum, the `details` of a validation error, where credentials may go in a body); they are
 * derived from the contract schemas, never written as JSON Schema by hand.
 */

const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** Every stable machine error code; the HTTP status of each is in `ERROR_CODES`. */
export const ErrorCodeSchema = z.enum(ERROR_CODE_NAMES);

/** `details` of a `validation_failed` / `invalid_amount` answer: one entry per bad field. */
export const ErrorDetailsSchema = z.object({
  fields: z.array(z.object({ field: z.string(), problem: z.string() })),
});

const documentedError = { errorCode: ErrorCodeSchema, details: ErrorDetailsSchema.optional() };

/** The error bodies as sent: each form's error schema with the code enum and the optional details. */
export const DocumentedH2hErrorSchema = H2hErrorResponseSchema.extend(documentedError);
export const DocumentedMerchantErrorSchema = MerchantErrorResponseSchema.extend(documentedError);
export const DocumentedInfrastructureDepositErrorSchema =
  InfrastructureDepositErrorResponseSchema.extend(documentedError);
export const DocumentedInfrastructureWithdrawalErrorSchema =
  InfrastructureWithdrawalErrorResponseSchema.extend(documentedError);
export const DocumentedTestAuthFailureSchema = TestAuthFailureResponseSchema.extend(documentedError);

/** Gateway credentials in a JSON body or query string (the headers and HTTP Basic are security schemes). */
export const CredentialFieldsSchema = MerchantCheckStatusRequestSchema.pick({
  ApiKey: true,
  apiKey: true,
  ApiSecret: true,
  apiSecret: true,
});

/** POST / answers with the body of the operation `method` selected. */
export const MerchantSingleEndpointResponseSchema = z.union([
  MerchantDepositResponseSchema,
  MerchantWithdrawalResponseSchema,
  StatusResponseSchema,
]);

/** The identifier of POST /status/{identifier}: your transaction id, or with `by` our integer id or uuid. */
export const StatusIdentifierSchema = z.string().min(1).max(128);

export type ErrorForm = 'h2h' | 'merchant' | 'infrastructureDeposit' | 'infrastructureWithdrawal' | 'testAuth';

/** The error schema of each form, by the shape the gateway's error filter gives it. */
export const ERROR_SCHEMAS: Record<ErrorForm, { id: string; schema: z.ZodType }> = {
  h2h: { id: 'H2hErrorResponse', schema: DocumentedH2hErrorSchema },
  merchant: { id: 'ErrorResponse', schema: DocumentedMerchantErrorSchema },
  infrastructureDeposit: {
    id: 'InfrastructureDepositErrorResponse',
    schema: DocumentedInfrastructureDepositErrorSchema,
  },
  infrastructureWithdrawal: {
    id: 'InfrastructureWithdrawalErrorResponse',
    schema: DocumentedInfrastructureWithdrawalErrorSchema,
  },
  testAuth: { id: 'TestAuthFailureResponse', schema: DocumentedTestAuthFailureSchema },
};

export const AMOUNT_DESCRIPTION =
  'Amount in Turkish lira (TRY): a JSON number or a numeric string ("250", "250.00", 1250.5), greater than zero, ' +
  'at most 2 decimals, at most 1e12. Held as integer kuruş internally, never as a float. ' +
  'The signature rules use round(amount): round-half-up to an integer of the amount as sent (1250.5 → 1251).';

export interface ComponentEntry {
  id: string;
  schema: z.ZodType;
  description: string;
  /** JSON Schema `examples` of the value itself. */
  examples?: unknown[];
  /** Descriptions of single properties, added to the generated JSON Schema. */
  properties?: Record<string, string>;
}

const credentialProps = {
  ApiKey: 'API key (PascalCase spelling). Prefer the `x-api-key` header.',
  apiKey: 'API key (camelCase spelling). Prefer the `x-api-key` header.',
  ApiSecret: 'API secret (PascalCase spelling). Prefer the `x-api-secret` header.',
  apiSecret: 'API secret (camelCase spelling). Prefer the `x-api-secret` header.',
};
const merchantProps = {
  ...credentialProps,
  transactionId:
    'Your unique id of this transaction (unique per provider; a repeat with the same payload is idempotent).',
  name: 'Customer first name. One of name, surname or username is required.',
  surname: 'Customer last name.',
  username: 'Customer username on your site.',
  callback:
    'Your callback URL. Recorded only: callbacks always go to the URL registered on the infrastructure (SSRF-safe).',
  hash: 'Optional signature, hex: SHA256(apiKey + transactionId + apiSecret + round(amount)). Checked whenever sent.',
  method: 'Single endpoint only: deposit, withdraw or checkStatus.',
};
const h2hProps = {
  apikey: 'API key issued in the panel.',
  transaction_id:
    'Your unique id of this transaction (unique per provider; a repeat with the same payload is idempotent).',
  hash: 'Mandatory signature, hex (either case): SHA256(apikey + transaction_id + apiSecret + round(amount)).',
  callback_url:
    'Optional. Must equal the callback URL registered on the infrastructure exactly, or the request is refused (callback_url_mismatch).',
};
const infrastructureProps = {
  ApiKey: 'API key issued in the panel.',
  OperationGuid: 'A GUID you generate; echoed back as OperationGuidBack.',
  RequestId: 'Your unique id of this request (unique per provider).',
  SecurityKey: 'Signature, hex (either case): SHA256(ApiKey + ApiSecret + OperationGuid).',
  CustomerMemberId: 'Optional customer member id, echoed in the callback.',
};

/** Every named schema of the document, in the order they appear in `components.schemas`. */
export const COMPONENTS: ComponentEntry[] = [
  { id: 'Amount', schema: AmountSchema, description: AMOUNT_DESCRIPTION, examples: [250, 1250.5, '300.00'] },
  {
    id: 'H2hDepositRequest',
    schema: H2hDepositRequestSchema,
    description: 'H2H deposit request (POST /deposit/bank).',
    properties: { ...h2hProps, fullname: 'Customer full name (the sender of the transfer).' },
  },
  {
    id: 'H2hDepositResponse',
    schema: H2hDepositResponseSchema,
    description: 'H2H deposit response: the account the customer pays into.',
    properties: {
      status: 'true on success.',
      code: '200 on success.',
      account_name: 'Receiving account holder name.',
      account_iban: 'Receiving IBAN.',
      fast: 'Whether a FAST (instant) transfer to this account is possible.',
      id: 'Equals the transaction id you sent.',
      transaction_id: 'Echo of the request id.',
    },
  },
  {
    id: 'H2hWithdrawalRequest',
    schema: H2hWithdrawalRequestSchema,
    description: 'H2H withdrawal request (POST /withdrawal/bank).',
    properties: { ...h2hProps, fullname: 'Recipient full name.', iban: 'Destination TR IBAN (mod-97 checked).' },
  },
  {
    id: 'H2hWithdrawalResponse',
    schema: H2hWithdrawalResponseSchema,
    description: 'H2H withdrawal response: the request waits for approval; a callback follows.',
    properties: { id: 'Internal integer withdrawal id.', transaction_id: 'Echo of the request id.' },
  },
  {
    id: 'InfrastructureDepositRequest',
    schema: InfrastructureDepositRequestSchema,
    description:
      'Infrastructure deposit request (GET query string or POST JSON). CustomerFullName or CustomerUsername is required.',
    properties: {
      ...infrastructureProps,
      CustomerFullName: 'Customer full name (or give CustomerUsername).',
      CustomerUsername: 'Customer username, accepted instead of CustomerFullName.',
      CallbackUrl: 'Optional callback URL; callbacks go to the URL registered on the infrastructure.',
    },
  },
  {
    id: 'InfrastructureDepositResponse',
    schema: InfrastructureDepositResponseSchema,
    description: 'Infrastructure deposit response: the payment page link.',
  },
  {
    id: 'InfrastructureWithdrawalRequest',
    schema: InfrastructureWithdrawalRequestSchema,
    description: 'Infrastructure withdrawal request (GET query string or POST JSON).',
    properties: {
      ...infrastructureProps,
      CustomerFullName: 'Recipient full name.',
      AccountNumber: 'Destination TR IBAN.',
    },
  },
  {
    id: 'InfrastructureWithdrawalResponse',
    schema: InfrastructureWithdrawalResponseSchema,
    description: 'Infrastructure withdrawal response (PascalCase).',
  },
  {
    id: 'MerchantDepositRequest',
    schema: MerchantDepositRequestSchema,
    description:
      'Merchant API deposit request. Credentials may also come from the x-api-key/x-api-secret headers, HTTP Basic or the query string.',
    properties: merchantProps,
  },
  {
    id: 'MerchantDepositResponse',
    schema: MerchantDepositResponseSchema,
    description: 'Merchant API deposit response: send the customer to `data.paymentUrl`.',
  },
  {
    id: 'MerchantWithdrawalRequest',
    schema: MerchantWithdrawalRequestSchema,
    description: 'Merchant API withdrawal request. The recipient is `fullname`, or `name` (+ `surname`).',
    properties: {
      ...merchantProps,
      iban: 'Destination TR IBAN (mod-97 checked).',
      fullname: 'Recipient full name.',
    },
  },
  {
    id: 'MerchantWithdrawalResponse',
    schema: MerchantWithdrawalResponseSchema,
    description: 'Merchant API withdrawal response: queued for approval in the panel.',
  },
  {
    id: 'MerchantCheckStatusRequest',
    schema: MerchantCheckStatusRequestSchema,
    description: 'Single endpoint `method: checkStatus`: the transaction by your id.',
    properties: credentialProps,
  },
  {
    id: 'MerchantSingleEndpointRequest',
    schema: MerchantSingleEndpointRequestSchema,
    description:
      'POST / (and /api): one body dispatched on `method` — deposit (fields of the deposit request), withdraw (fields of the withdrawal request) or checkStatus.',
  },
  {
    id: 'MerchantSingleEndpointResponse',
    schema: MerchantSingleEndpointResponseSchema,
    description: 'The answer of the selected method: deposit, withdrawal or status response.',
  },
  {
    id: 'CredentialFields',
    schema: CredentialFieldsSchema,
    description: 'Gateway credentials given in a JSON body or the query string.',
    properties: credentialProps,
  },
  {
    id: 'StatusRequestFields',
    schema: StatusRequestFieldsSchema,
    description:
      'POST /status/{identifier}: optional credentials and what the identifier is, in the body or query string.',
    properties: {
      ...credentialProps,
      by: 'What the identifier is: `transactionId` (default: your own transaction id), `id` (our integer id) or `uuid`.',
    },
  },
  {
    id: 'StatusResponse',
    schema: StatusResponseSchema,
    description: "A transaction's current state.",
    properties: {
      id: 'Internal integer id.',
      uuid: 'Internal transaction uuid.',
      transactionId: 'Your transaction id.',
      status:
        'Deposit: awaiting_payment, payment_reported, held, approved, rejected, expired. Withdrawal: pending, processing, held, approved, rejected. held: a risk rule holds it for an operator (not final).',
      amount: 'Current amount in TRY.',
      originalAmount: 'Amount as first requested, in TRY (an operator may change the amount before a final state).',
      createdAt: 'ISO 8601 UTC.',
      updatedAt: 'ISO 8601 UTC.',
    },
  },
  { id: 'BankItem', schema: BankItemSchema, description: 'A bank with an active receiving account.' },
  { id: 'BanksResponse', schema: BanksResponseSchema, description: 'Banks customers can pay into.' },
  {
    id: 'TestAuthSuccessResponse',
    schema: TestAuthSuccessResponseSchema,
    description: 'The credentials match this provider.',
    properties: { providerId: "The provider's integer number.", providerName: "The provider's name." },
  },
  { id: 'HealthResponse', schema: HealthResponseSchema, description: 'Liveness of the gateway.' },
  {
    id: 'ModuleHealthResponse',
    schema: ModuleHealthResponseSchema,
    description: 'Health of the provider module: the database answers.',
  },
  {
    id: 'SandboxActionRequest',
    schema: SandboxActionRequestSchema,
    description: 'Optional fields of a sandbox action: credentials (or the headers), `by`, and a rejection `reason`.',
  },
  {
    id: 'IncomingWebhookRequest',
    schema: IncomingWebhookRequestSchema,
    description:
      'An upstream status update. Read tolerantly: a status field and any id field naming one transaction of ' +
      'the infrastructure; every other field is accepted and kept in the webhook log.',
  },
  {
    id: 'IncomingWebhookResponse',
    schema: IncomingWebhookResponseSchema,
    description:
      'What the transaction is now (a repeat answers the same with `already approved` / `already rejected`).',
  },
  {
    id: 'ErrorCode',
    schema: ErrorCodeSchema,
    description: `Stable machine error code; never changes meaning. HTTP statuses: ${ERROR_CODE_NAMES.map(
      (code) => `${code} ${ERROR_CODES[code]}`,
    ).join(', ')}.`,
  },
  {
    id: 'ErrorDetails',
    schema: ErrorDetailsSchema,
    description: 'Present on validation errors: every bad field and what is wrong with it.',
  },
  {
    id: ERROR_SCHEMAS.h2h.id,
    schema: ERROR_SCHEMAS.h2h.schema,
    description: 'H2H error body: the success shape with status false, code = the HTTP status, and errorCode.',
    properties: { code: 'The HTTP status of the answer.' },
  },
  {
    id: ERROR_SCHEMAS.merchant.id,
    schema: ERROR_SCHEMAS.merchant.schema,
    description: 'Error body of the Merchant API, /status, /banks and the health endpoints.',
  },
  {
    id: ERROR_SCHEMAS.infrastructureDeposit.id,
    schema: ERROR_SCHEMAS.infrastructureDeposit.schema,
    description: 'Error body of the infrastructure deposit form.',
  },
  {
    id: ERROR_SCHEMAS.infrastructureWithdrawal.id,
    schema: ERROR_SCHEMAS.infrastructureWithdrawal.schema,
    description: 'Error body of the infrastructure withdrawal form (PascalCase, like its success body).',
  },
  {
    id: ERROR_SCHEMAS.testAuth.id,
    schema: ERROR_SCHEMAS.testAuth.schema,
    description: '/test-auth failure: success false and a message stating invalid credentials.',
  },
  {
    id: 'MerchantCallback',
    schema: MerchantCallbackSchema,
    description: 'Merchant API callback: status confirm or cancel.',
  },
  {
    id: 'H2hCallback',
    schema: H2hCallbackSchema,
    description: 'H2H API callback: status APPROVED or REJECTED; reason only when rejected.',
    properties: {
      depositId: 'Internal integer id (for withdrawals too).',
      uuid: 'Equals the transaction id.',
      timestamp: 'ISO 8601 UTC.',
    },
  },
  {
    id: 'InfrastructureCallback',
    schema: InfrastructureCallbackSchema,
    description:
      'Infrastructure API callback (PascalCase): Status true with Message confirmed, or false with declined.',
    properties: { SecurityKey: 'The value from the original request.' },
  },
  {
    id: 'Md5Callback',
    schema: Md5CallbackSchema,
    description: 'MD5-signed callback variant.',
    properties: {
      signature: 'MD5(transactionId + status + amount + type + apiSecret), hex; amount as it appears in the body.',
    },
  },
];

/** JSON Schema reference of a component. */
export const componentRef = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** The component name of a registered zod schema. */
export function componentIdOf(schema: z.ZodType): string {
  const entry = COMPONENTS.find((candidate) => candidate.schema === schema);
  if (!entry) throw new Error('schema is not a registered OpenAPI component');
  return entry.id;
}
