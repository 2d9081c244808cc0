import { z } from 'zod';
import type { ErrorCode } from '../errors/error-codes.js';
import { BanksResponseSchema } from '../http/banks.js';
import {
  H2hDepositRequestSchema,
  H2hDepositResponseSchema,
  H2hWithdrawalRequestSchema,
  H2hWithdrawalResponseSchema,
} from '../http/h2h.js';
import {
  InfrastructureDepositRequestSchema,
  InfrastructureDepositResponseSchema,
  InfrastructureWithdrawalRequestSchema,
  InfrastructureWithdrawalResponseSchema,
} from '../http/infrastructure.js';
import {
  MerchantDepositRequestSchema,
  MerchantDepositResponseSchema,
  MerchantSingleEndpointRequestSchema,
  MerchantWithdrawalRequestSchema,
  MerchantWithdrawalResponseSchema,
  StatusRequestFieldsSchema,
} from '../http/merchant.js';
import { ModuleHealthResponseSchema } from '../http/module-health.js';
import { HealthResponseSchema, StatusResponseSchema } from '../http/status.js';
import { TestAuthSuccessResponseSchema } from '../http/test-auth.js';
import { IncomingWebhookRequestSchema, IncomingWebhookResponseSchema } from '../http/webhooks.js';
import { SandboxActionRequestSchema } from '../http/sandbox.js';
import {
  CredentialFieldsSchema,
  MerchantSingleEndpointResponseSchema,
  StatusIdentifierSchema,
  type ErrorForm,
} from './components.js';
import * as examples from './examples.js';
import type { Example } from './examples.js';

/**
 * The gateway endpoints of the contract's Endpoints → Gateway table, one entry per path. The
 * document builder turns each into OpenAPI operations; bodies come from the zod schemas named here.
 */

/** Operation keys OpenAPI 3.1 has (it has no SEARCH; see `extraMethods`). */
export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'options' | 'head';

export type Security = 'none' | 'apiKeySecret';

export interface EndpointSpec {
  /** Base of the operation ids; endpoints with several methods get the method appended. */
  operationId: string;
  path: string;
  methods: HttpMethod[];
  /** Methods that are routed but cannot be OpenAPI operation keys (SEARCH), or that are routed but left undocumented. */
  extraMethods?: string[];
  tag: string;
  summary: string;
  description: string;
  pathParams?: { name: string; description: string; schema: z.ZodType }[];
  /** Request fields: a JSON body for POST/PUT/PATCH, query parameters for GET/DELETE/HEAD/OPTIONS. */
  request?: { schema: z.ZodType; required: boolean; examples: Record<string, Example> };
  success: { status: 200 | 201; description: string; schema: z.ZodType; examples: Record<string, Example> };
  errors: { form: ErrorForm; codes: ErrorCode[] };
  security: Security;
}

/** Refusals shared by every provider-authenticated request. */
const CALLER: ErrorCode[] = [
  'invalid_credentials',
  'ip_not_allowed',
  'provider_disabled',
  'merchant_disabled',
  'rate_limited',
];
/** A body that can be malformed or too large. */
const BODY: ErrorCode[] = ['validation_failed', 'malformed_json', 'payload_too_large'];
/** Creating a transaction. */
const CREATE: ErrorCode[] = [
  ...BODY,
  'invalid_amount',
  ...CALLER,
  'invalid_signature',
  'form_not_enabled',
  'duplicate_transaction',
  'amount_out_of_range',
];
const DEPOSIT: ErrorCode[] = [...CREATE, 'no_receiving_account'];
const WITHDRAWAL: ErrorCode[] = [...CREATE, 'invalid_iban', 'insufficient_balance'];

const IDEMPOTENCY =
  'Idempotent by your transaction id: a repeat with the same payload answers the first response again; ' +
  'a repeat with a different payload is 409 duplicate_transaction.';
const ALL_OTHER_METHODS = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'SEARCH'];

/** Refusals of an incoming webhook (webhook-ingest). */
const WEBHOOK_ERRORS: ErrorCode[] = [
  ...BODY,
  'invalid_amount',
  'ip_not_allowed',
  'not_found',
  'transaction_not_found',
  'invalid_state_transition',
  'transaction_final',
  'amount_mismatch',
];

function webhookEndpoints(): EndpointSpec[] {
  const paths: Array<[string, string, string]> = [
    ['incomingDepositWebhook', '/deposit/callback/{slug}', 'deposit'],
    ['incomingWithdrawWebhook', '/withdraw/callback/{slug}', 'withdrawal'],
    ['incomingWithdrawalWebhook', '/withdrawal/callback/{slug}', 'withdrawal (synonym of /withdraw/callback)'],
  ];
  return paths.map(([operationId, path, kind]) => ({
    operationId,
    path,
    methods: ['post'] as HttpMethod[],
    tag: 'Incoming webhooks',
    summary: `Upstream status update for a ${kind}`,
    description:
      'Sent by the upstream payment provider, not by integrators. Accepted only from the IP ranges allow-listed ' +
      "on the infrastructure (an empty list refuses everyone); the transaction is found among that infrastructure's " +
      'own by any id field the forms use; a repeat is answered again and changes nothing. Also served under /api, ' +
      'and under the aliases of WEBHOOK_ALIASES.',
    pathParams: [
      {
        name: 'slug',
        description: "The infrastructure's slug (or an alias of it).",
        schema: z.string().min(1).max(128),
      },
    ],
    request: {
      schema: IncomingWebhookRequestSchema,
      required: true,
      examples: examples.INCOMING_WEBHOOK_REQUEST_EXAMPLES,
    },
    success: {
      status: 201,
      description: 'Applied (or already applied): the transaction as it is now.',
      schema: IncomingWebhookResponseSchema,
      examples: examples.INCOMING_WEBHOOK_RESPONSE_EXAMPLES,
    },
    errors: { form: 'merchant', codes: WEBHOOK_ERRORS },
    security: 'none',
  }));
}

/** The sandbox: an integrator decides its own test transactions (sandbox providers only). */
function sandboxEndpoints(): EndpointSpec[] {
  const actions: Array<[string, 'approve' | 'reject', string]> = [
    ['sandboxApprove', 'approve', 'Approve a sandbox transaction'],
    ['sandboxReject', 'reject', 'Reject a sandbox transaction'],
  ];
  return actions.map(([operationId, action, summary]) => ({
    operationId,
    path: `/sandbox/transactions/{identifier}/${action}`,
    methods: ['post'] as HttpMethod[],
    tag: 'Sandbox',
    summary,
    description:
      'Only for a provider an admin marked `sandbox` (403 sandbox_only otherwise): decides one of its own ' +
      'transactions as an operator would, through the same ledger commands, so the balance moves and the ' +
      'callback is sent exactly as in production. The identifier and `by` work as in POST /status. ' +
      (action === 'reject' ? 'The optional `reason` is what the rejection callback carries.' : '') +
      ' A final transaction stays final (422).',
    pathParams: [
      {
        name: 'identifier',
        description: 'Your transaction id; with `by=id` our integer id, with `by=uuid` our uuid.',
        schema: StatusIdentifierSchema,
      },
    ],
    request: { schema: SandboxActionRequestSchema, required: false, examples: examples.CREDENTIALS_BODY_EXAMPLES },
    success: {
      status: 201,
      description: 'Decided: the transaction as it is now.',
      schema: StatusResponseSchema,
      examples: examples.STATUS_RESPONSE_EXAMPLES,
    },
    errors: {
      form: 'merchant',
      codes: [
        ...CALLER,
        'validation_failed',
        'sandbox_only',
        'transaction_not_found',
        'invalid_state_transition',
        'transaction_final',
        'insufficient_balance',
      ],
    },
    security: 'apiKeySecret',
  }));
}

export const GATEWAY_ENDPOINTS: EndpointSpec[] = [
  {
    operationId: 'h2hDeposit',
    path: '/deposit/bank',
    methods: ['post'],
    tag: 'H2H API',
    summary: 'H2H deposit: get the bank account to pay into',
    description:
      'Host-to-host deposit: no redirect; show the returned IBAN and account name in your own interface. ' +
      'The hash is mandatory: SHA256(apikey + transaction_id + apiSecret + round(amount)), hex. ' +
      IDEMPOTENCY,
    request: { schema: H2hDepositRequestSchema, required: true, examples: examples.H2H_DEPOSIT_REQUEST_EXAMPLES },
    success: {
      status: 201,
      description: 'Deposit created: the receiving account.',
      schema: H2hDepositResponseSchema,
      examples: examples.H2H_DEPOSIT_RESPONSE_EXAMPLES,
    },
    errors: { form: 'h2h', codes: [...DEPOSIT, 'callback_url_mismatch'] },
    security: 'none',
  },
  {
    operationId: 'h2hWithdrawal',
    path: '/withdrawal/bank',
    methods: ['post'],
    tag: 'H2H API',
    summary: 'H2H withdrawal: pay out to an IBAN after approval',
    description:
      'The amount plus fee is reserved on the merchant balance; the request waits for approval in the panel ' +
      'and a callback follows. Same mandatory hash as the H2H deposit. ' +
      IDEMPOTENCY,
    request: {
      schema: H2hWithdrawalRequestSchema,
      required: true,
      examples: examples.H2H_WITHDRAWAL_REQUEST_EXAMPLES,
    },
    success: {
      status: 201,
      description: 'Withdrawal received.',
      schema: H2hWithdrawalResponseSchema,
      examples: examples.H2H_WITHDRAWAL_RESPONSE_EXAMPLES,
    },
    errors: { form: 'h2h', codes: [...WITHDRAWAL, 'callback_url_mismatch'] },
    security: 'none',
  },
  {
    operationId: 'infrastructureDeposit',
    path: '/deposits/deposit-request',
    methods: ['get', 'post'],
    tag: 'Infrastructure API',
    summary: 'Infrastructure deposit: get a payment page link',
    description:
      'For betting-platform infrastructure providers (PascalCase). GET takes the fields from the query string, ' +
      'POST from a JSON body. SecurityKey = SHA256(ApiKey + ApiSecret + OperationGuid), hex. ' +
      IDEMPOTENCY,
    request: {
      schema: InfrastructureDepositRequestSchema,
      required: true,
      examples: examples.INFRASTRUCTURE_DEPOSIT_REQUEST_EXAMPLES,
    },
    success: {
      status: 200,
      description: 'Deposit created: send the customer to data.paymentLink.',
      schema: InfrastructureDepositResponseSchema,
      examples: examples.INFRASTRUCTURE_DEPOSIT_RESPONSE_EXAMPLES,
    },
    errors: { form: 'infrastructureDeposit', codes: DEPOSIT },
    security: 'none',
  },
  {
    operationId: 'infrastructureWithdrawal',
    path: '/withdraws/withdraw-request',
    methods: ['get', 'post'],
    tag: 'Infrastructure API',
    summary: 'Infrastructure withdrawal',
    description:
      'GET takes the fields from the query string, POST from a JSON body. Errors keep the PascalCase of the ' +
      'success body: { Success: false, Message, errorCode }. ' +
      IDEMPOTENCY,
    request: {
      schema: InfrastructureWithdrawalRequestSchema,
      required: true,
      examples: examples.INFRASTRUCTURE_WITHDRAWAL_REQUEST_EXAMPLES,
    },
    success: {
      status: 200,
      description: 'Withdrawal received; it waits for approval.',
      schema: InfrastructureWithdrawalResponseSchema,
      examples: examples.INFRASTRUCTURE_WITHDRAWAL_RESPONSE_EXAMPLES,
    },
    errors: { form: 'infrastructureWithdrawal', codes: WITHDRAWAL },
    security: 'none',
  },
  {
    operationId: 'merchantDeposit',
    path: '/deposit',
    methods: ['post'],
    extraMethods: ALL_OTHER_METHODS,
    tag: 'Merchant API',
    summary: 'Merchant deposit: get a payment page URL',
    description:
      'Send the customer to data.paymentUrl (`{payment_page_url}/payment/{token}`), where they pick a bank and ' +
      'report the transfer. POST is documented; every other HTTP method is routed too, with the fields in the ' +
      'query string and/or the JSON body (the body wins). The hash is optional: ' +
      'SHA256(apiKey + transactionId + apiSecret + round(amount)), checked whenever sent. ' +
      IDEMPOTENCY,
    request: {
      schema: MerchantDepositRequestSchema,
      required: true,
      examples: examples.MERCHANT_DEPOSIT_REQUEST_EXAMPLES,
    },
    success: {
      status: 200,
      description: 'Deposit created.',
      schema: MerchantDepositResponseSchema,
      examples: examples.MERCHANT_DEPOSIT_RESPONSE_EXAMPLES,
    },
    errors: { form: 'merchant', codes: DEPOSIT },
    security: 'apiKeySecret',
  },
  {
    operationId: 'merchantWithdrawal',
    path: '/withdrawal',
    methods: ['post'],
    extraMethods: ALL_OTHER_METHODS,
    tag: 'Merchant API',
    summary: 'Merchant withdrawal: queue a payout for approval',
    description:
      'The request goes to the panel approval queue; a callback follows approval or rejection. POST is ' +
      'documented; every other HTTP method is routed too, with the fields in the query string and/or the JSON ' +
      'body (the body wins). ' +
      IDEMPOTENCY,
    request: {
      schema: MerchantWithdrawalRequestSchema,
      required: true,
      examples: examples.MERCHANT_WITHDRAWAL_REQUEST_EXAMPLES,
    },
    success: {
      status: 200,
      description: 'Withdrawal queued.',
      schema: MerchantWithdrawalResponseSchema,
      examples: examples.MERCHANT_WITHDRAWAL_RESPONSE_EXAMPLES,
    },
    errors: { form: 'merchant', codes: WITHDRAWAL },
    security: 'apiKeySecret',
  },
  {
    operationId: 'merchantSingleEndpoint',
    path: '/',
    methods: ['post'],
    tag: 'Merchant API',
    summary: 'Single endpoint: deposit, withdraw or checkStatus by `method`',
    description:
      'The Merchant API deposit, withdrawal and status calls merged into one endpoint, dispatched on the ' +
      '`method` field. Also served as POST /api (no trailing slash).',
    request: {
      schema: MerchantSingleEndpointRequestSchema,
      required: true,
      examples: examples.SINGLE_ENDPOINT_REQUEST_EXAMPLES,
    },
    success: {
      status: 201,
      description: 'The answer of the selected method.',
      schema: MerchantSingleEndpointResponseSchema,
      examples: examples.SINGLE_ENDPOINT_RESPONSE_EXAMPLES,
    },
    errors: {
      form: 'merchant',
      codes: [...new Set<ErrorCode>([...DEPOSIT, ...WITHDRAWAL, 'transaction_not_found'])],
    },
    security: 'apiKeySecret',
  },
  {
    operationId: 'transactionStatus',
    path: '/status/{identifier}',
    methods: ['post'],
    tag: 'Status',
    summary: "A transaction's current state",
    description:
      'Looks a transaction of the calling provider up by your transaction id. The identifier is always your ' +
      'own transaction id unless `by` (query string or body) says otherwise: `by=id` for our integer id ' +
      '(`id` of every answer), `by=uuid` for our uuid. A numeric transaction id of yours is never taken for ' +
      "another transaction's integer id. The single endpoint's `checkStatus` takes the same `by`.",
    pathParams: [
      {
        name: 'identifier',
        description: 'Your transaction id; with `by=id` our integer id, with `by=uuid` our uuid.',
        schema: StatusIdentifierSchema,
      },
    ],
    request: { schema: StatusRequestFieldsSchema, required: false, examples: examples.CREDENTIALS_BODY_EXAMPLES },
    success: {
      status: 201,
      description: 'The transaction.',
      schema: StatusResponseSchema,
      examples: examples.STATUS_RESPONSE_EXAMPLES,
    },
    errors: { form: 'merchant', codes: [...CALLER, 'validation_failed', 'transaction_not_found'] },
    security: 'apiKeySecret',
  },
  {
    operationId: 'listBanks',
    path: '/banks',
    methods: ['get'],
    tag: 'Status',
    summary: 'Supported banks',
    description: 'Banks that currently have an active receiving account. Public: no credentials needed.',
    success: {
      status: 200,
      description: 'The banks.',
      schema: BanksResponseSchema,
      examples: examples.BANKS_RESPONSE_EXAMPLES,
    },
    errors: { form: 'merchant', codes: ['rate_limited'] },
    security: 'none',
  },
  {
    operationId: 'testAuth',
    path: '/test-auth',
    methods: ['get', 'post', 'put', 'delete', 'patch', 'options', 'head'],
    extraMethods: ['SEARCH'],
    tag: 'Status',
    summary: 'Check API credentials',
    description:
      'Answers on GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD and SEARCH (OpenAPI 3.1 has no SEARCH operation: ' +
      'see `x-additional-methods`). Credentials from the headers, HTTP Basic, the JSON body or the query string. ' +
      'Open only in development or when the `testAuthEnabled` setting is on; otherwise 404 not_found.',
    request: { schema: CredentialFieldsSchema, required: false, examples: examples.CREDENTIALS_BODY_EXAMPLES },
    success: {
      status: 200,
      description: 'The credentials match.',
      schema: TestAuthSuccessResponseSchema,
      examples: examples.TEST_AUTH_RESPONSE_EXAMPLES,
    },
    errors: { form: 'testAuth', codes: [...CALLER, 'not_found'] },
    security: 'apiKeySecret',
  },
  {
    operationId: 'health',
    path: '/',
    methods: ['get'],
    tag: 'Health',
    summary: 'Gateway liveness',
    description: 'Also served as GET /api (no trailing slash).',
    success: {
      status: 200,
      description: 'Up.',
      schema: HealthResponseSchema,
      examples: examples.HEALTH_RESPONSE_EXAMPLES,
    },
    errors: { form: 'merchant', codes: [] },
    security: 'none',
  },
  {
    operationId: 'moduleHealth',
    path: '/eqopay/health',
    methods: ['get'],
    tag: 'Health',
    summary: 'Provider module health',
    description:
      'Health of the provider module ("eqopay" is the contract\'s brand-derived alias): checks that the ' +
      'database answers. 503 unavailable when it does not.',
    success: {
      status: 200,
      description: 'Up, database reachable.',
      schema: ModuleHealthResponseSchema,
      examples: examples.MODULE_HEALTH_RESPONSE_EXAMPLES,
    },
    errors: { form: 'merchant', codes: ['unavailable'] },
    security: 'none',
  },
  ...webhookEndpoints(),
  ...sandboxEndpoints(),
];
