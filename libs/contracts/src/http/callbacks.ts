import { z } from 'zod';

/**
 * The four outgoing callback bodies (POST JSON to the infrastructure's registered `callback_deposit` /
 * `callback_withdrawal` URL when a transaction is approved or rejected in the panel). The body format
 * is chosen by the infrastructure's `callbackFormat`. Amounts are JSON numbers of TRY.
 *
 * Decisions on what the contract leaves open:
 * - H2H `type` for withdrawals is `withdrawal`; `depositId` carries the internal integer id for both types.
 * - MD5 variant: `status` is `confirmed` on approval and `declined` on rejection (the infrastructure
 *   form's words); `type` is `deposit` or `withdrawal`.
 */

/** Merchant API: status confirm | cancel. */
export const MerchantCallbackSchema = z.object({
  transactionId: z.string(),
  amount: z.number(),
  status: z.enum(['confirm', 'cancel']),
});
export type MerchantCallback = z.infer<typeof MerchantCallbackSchema>;

/** H2H API (transactions created at /deposit/bank and /withdrawal/bank). */
export const H2hCallbackSchema = z.object({
  type: z.enum(['deposit', 'withdrawal']),
  transactionId: z.string(),
  status: z.enum(['APPROVED', 'REJECTED']),
  amount: z.number(),
  /** Internal integer id. */
  depositId: z.number().int(),
  /** ISO 8601 UTC date-time, e.g. 2024-05-01T12:00:00.000Z. */
  timestamp: z.iso.datetime(),
  /** Equals the transaction id. */
  uuid: z.string(),
  metadata: z.object({
    userID: z.string(),
    username: z.string(),
    senderName: z.string(),
  }),
  /** Present only when rejected. */
  reason: z.string().optional(),
});
export type H2hCallback = z.infer<typeof H2hCallbackSchema>;

/** Infrastructure API (PascalCase): Status true + Message confirmed, or Status false + Message declined. */
export const InfrastructureCallbackSchema = z
  .object({
    CustomerFullName: z.string(),
    Amount: z.number(),
    CustomerMemberId: z.string(),
    RequestId: z.string(),
    /** Value taken from the original request. */
    SecurityKey: z.string(),
    Status: z.boolean(),
    Message: z.enum(['confirmed', 'declined']),
    OperationGuidBack: z.string(),
  })
  .refine((body) => body.Status === (body.Message === 'confirmed'), {
    message: 'Status true goes with Message confirmed, false with declined',
    path: ['Message'],
  });
export type InfrastructureCallback = z.infer<typeof InfrastructureCallbackSchema>;

/** MD5-signed variant: signature = MD5(transactionId + status + amount + type + apiSecret). */
export const Md5CallbackSchema = z.object({
  transactionId: z.string(),
  amount: z.number(),
  status: z.enum(['confirmed', 'declined']),
  type: z.enum(['deposit', 'withdrawal']),
  signature: z.string().regex(/^[0-9a-fA-F]{32}$/, 'MD5 hex digest'),
});
export type Md5Callback = z.infer<typeof Md5CallbackSchema>;

/** Status words of each callback format, by outcome. */
export const CALLBACK_STATUS = {
  merchant: { approved: 'confirm', rejected: 'cancel' },
  h2h: { approved: 'APPROVED', rejected: 'REJECTED' },
  infrastructure: { approved: 'confirmed', rejected: 'declined' },
  md5: { approved: 'confirmed', rejected: 'declined' },
} as const;
