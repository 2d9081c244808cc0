import { z } from 'zod';
import { AmountSchema } from '../money/kurus.js';

/**
 * Incoming upstream webhooks (`POST /deposit/callback/{slug}`, `/withdraw/callback/{slug}`,
 * `/withdrawal/callback/{slug}`). The contract shows no payload, so the ingest reads it tolerantly
 * (services/webhook-ingest/src/webhook-body.ts): these schemas document the fields it reads; any
 * other field is accepted and kept in the webhook log.
 */
const idField = z.union([z.string().min(1).max(128), z.number().int().positive()]);

export const IncomingWebhookRequestSchema = z.looseObject({
  status: z
    .union([z.string(), z.boolean()])
    .optional()
    .describe(
      'The decision, also read from `Status`, `state` or `result` (any case): approved, confirmed, confirm, ' +
        'success, paid, true … approve; rejected, declined, cancel, failed, false … reject.',
    ),
  transactionId: idField
    .optional()
    .describe('The transaction id the integrator sent (also `transaction_id`, `RequestId`).'),
  transaction_id: idField.optional(),
  RequestId: idField.optional(),
  depositId: idField.optional().describe('Our integer id of a deposit (also `withdrawalId`, `id`).'),
  withdrawalId: idField.optional(),
  id: idField.optional(),
  uuid: z.string().optional().describe('Our transaction uuid.'),
  amount: AmountSchema.optional().describe(
    'The amount paid (also `Amount`). When given on an approval it must equal the transaction amount: ' +
      'otherwise 422 amount_mismatch and the transaction waits for an operator.',
  ),
  reason: z.string().max(500).optional().describe('Why a transaction was rejected (also `Reason`, `message`).'),
});
export type IncomingWebhookRequest = z.infer<typeof IncomingWebhookRequestSchema>;

export const IncomingWebhookResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  transactionId: z.string(),
  id: z.number().int(),
  uuid: z.string(),
  type: z.enum(['deposit', 'withdrawal']),
  status: z.enum(['approved', 'rejected']),
});
export type IncomingWebhookResponse = z.infer<typeof IncomingWebhookResponseSchema>;
