import { z } from 'zod';
import { AmountSchema } from '../money/kurus.js';
import { BankCodeSchema, rawText, requestText } from './text.js';
import { StatusLookupSchema } from './status.js';

/**
 * Merchant API: POST /deposit, POST /withdrawal and the single endpoint POST / (method = deposit,
 * withdraw or checkStatus). Identity: ApiKey + ApiSecret (body, query or headers), optional hash.
 *
 * Decisions on what the contract leaves open (docs/architecture.md):
 * - Credentials (`ApiKey`/`apiKey`, `ApiSecret`/`apiSecret`) are optional in the body because they may
 *   come from the query string, the `x-api-key`/`x-api-secret` headers or HTTP Basic instead; the
 *   gateway resolves them and answers 401 `invalid_credentials` when none is found.
 * - Required: `transactionId`, `amount` and some customer identity: at least one of `name`, `surname`,
 *   `username` (the infrastructure form likewise accepts a username instead of a full name). The
 *   customer name is `name + ' ' + surname`, falling back to `username` (see `merchantCustomerName`).
 * - `callback` is optional: callbacks only ever go to the URL registered on the infrastructure.
 * - Withdrawal: the destination is `iban`; the recipient is `fullname`, or `name` (+ `surname`).
 * - Success bodies use the `{ success, message, data }` envelope of the infrastructure form; error
 *   bodies are `{ success: false, message, errorCode }`.
 */

const idText = requestText(128);
const nameText = requestText(200);
const credential = rawText(256);

export const MERCHANT_METHODS = ['deposit', 'withdraw', 'checkStatus'] as const;
export const MerchantMethodSchema = z.enum(MERCHANT_METHODS);
export type MerchantMethod = z.infer<typeof MerchantMethodSchema>;

const credentialShape = {
  ApiKey: credential.optional(),
  apiKey: credential.optional(),
  ApiSecret: credential.optional(),
  apiSecret: credential.optional(),
};

const depositShape = {
  ...credentialShape,
  transactionId: idText,
  amount: AmountSchema,
  name: nameText.optional(),
  surname: nameText.optional(),
  username: nameText.optional(),
  callback: rawText(2048, 0).optional(),
  bankCode: BankCodeSchema.optional(),
  hash: rawText(256).optional(),
};

const withdrawalShape = {
  ...depositShape,
  /** Destination IBAN (mod-97 is checked by the domain: `invalid_iban`). */
  iban: rawText(64),
  /** Recipient full name; `name` (+ `surname`) is accepted instead. */
  fullname: nameText.optional(),
};

const hasCustomer = (body: { name?: string; surname?: string; username?: string }) =>
  Boolean(body.name || body.surname || body.username);
const customerIssue = { message: 'one of name, surname or username is required', path: ['name'] };

const hasRecipient = (body: { fullname?: string; name?: string }) => Boolean(body.fullname || body.name);
const recipientIssue = { message: 'fullname (or name and surname) is required', path: ['fullname'] };

/** Optional on deposits: where the payment page links back to; on a registered origin of the integration. */
const returnUrlShape = { returnUrl: rawText(2048, 0).optional() };

export const MerchantDepositRequestSchema = z
  .object({ ...depositShape, ...returnUrlShape, method: MerchantMethodSchema.optional() })
  .refine(hasCustomer, customerIssue);
export type MerchantDepositRequest = z.infer<typeof MerchantDepositRequestSchema>;

export const MerchantWithdrawalRequestSchema = z
  .object({ ...withdrawalShape, method: MerchantMethodSchema.optional() })
  .refine(hasRecipient, recipientIssue);
export type MerchantWithdrawalRequest = z.infer<typeof MerchantWithdrawalRequestSchema>;

/** Single endpoint `method: checkStatus`: the transaction is looked up by the merchant's id. */
export const MerchantCheckStatusRequestSchema = z.object({
  ...credentialShape,
  method: z.literal('checkStatus'),
  transactionId: idText,
  by: StatusLookupSchema.optional(),
});
export type MerchantCheckStatusRequest = z.infer<typeof MerchantCheckStatusRequestSchema>;

/** POST /status/{identifier}'s optional fields (body or query): credentials and what the identifier is. */
export const StatusRequestFieldsSchema = MerchantCheckStatusRequestSchema.pick({
  ApiKey: true,
  apiKey: true,
  ApiSecret: true,
  apiSecret: true,
  by: true,
});

/** POST / and /api: one body, dispatched on `method`. */
export const MerchantSingleEndpointRequestSchema = z.discriminatedUnion('method', [
  z.object({ ...depositShape, ...returnUrlShape, method: z.literal('deposit') }).refine(hasCustomer, customerIssue),
  z.object({ ...withdrawalShape, method: z.literal('withdraw') }).refine(hasRecipient, recipientIssue),
  MerchantCheckStatusRequestSchema,
]);
export type MerchantSingleEndpointRequest = z.infer<typeof MerchantSingleEndpointRequestSchema>;

/** The API key and secret of a body, whichever spelling was used (PascalCase wins). */
export function merchantBodyCredentials(body: {
  ApiKey?: string;
  apiKey?: string;
  ApiSecret?: string;
  apiSecret?: string;
}): { apiKey?: string; apiSecret?: string } {
  return { apiKey: body.ApiKey ?? body.apiKey, apiSecret: body.ApiSecret ?? body.apiSecret };
}

/** Customer (deposit) or recipient (withdrawal) full name of a merchant body. */
export function merchantCustomerName(body: {
  fullname?: string;
  name?: string;
  surname?: string;
  username?: string;
}): string {
  if (body.fullname) return body.fullname;
  const joined = [body.name, body.surname].filter(Boolean).join(' ');
  return joined || body.username || '';
}

/** POST /deposit success: the payment page URL `{payment_page_url}/payment/{token}`. */
export const MerchantDepositResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    paymentUrl: z.string(),
    /** Echo of the merchant's transactionId. */
    transactionId: z.string(),
    /** Internal integer transaction id (the number also used as H2H `depositId`). */
    id: z.number().int(),
  }),
});
export type MerchantDepositResponse = z.infer<typeof MerchantDepositResponseSchema>;

/** POST /withdrawal success: the request waits in the panel approval queue; a callback follows. */
export const MerchantWithdrawalResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    transactionId: z.string(),
    id: z.number().int(),
    status: z.literal('pending'),
  }),
});
export type MerchantWithdrawalResponse = z.infer<typeof MerchantWithdrawalResponseSchema>;

/** Error body of the Merchant form (and of the infrastructure deposit form). */
export const MerchantErrorResponseSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errorCode: z.string(),
});
export type MerchantErrorResponse = z.infer<typeof MerchantErrorResponseSchema>;
