import { z } from 'zod';

/**
 * What a status identifier names. By default it is the caller's own transaction id (the external id
 * it sent), and only that: a numeric external id that happens to equal another transaction's
 * internal number never answers that transaction. The internal integer id (`id` of our answers) and
 * the uuid are looked up only when asked for with `by`.
 */
export const STATUS_LOOKUPS = ['transactionId', 'id', 'uuid'] as const;
export const StatusLookupSchema = z
  .enum(STATUS_LOOKUPS)
  .describe(
    'What the identifier is: `transactionId` (default, your own transaction id), `id` (our integer id) or `uuid`.',
  );
export type StatusLookup = z.infer<typeof StatusLookupSchema>;

/**
 * POST /status/{identifier}: the contract leaves the fields open; we answer the transaction's
 * current state. `id` is the internal integer id, `uuid` the internal stream id.
 */
export const StatusResponseSchema = z.object({
  success: z.literal(true),
  id: z.number().int(),
  uuid: z.string(),
  transactionId: z.string(),
  type: z.enum(['deposit', 'withdrawal']),
  status: z.string(),
  amount: z.number(),
  originalAmount: z.number(),
  currency: z.literal('TRY'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StatusResponse = z.infer<typeof StatusResponseSchema>;

export const HealthResponseSchema = z.object({
  status: z.literal('ok'),
  service: z.string(),
  version: z.string(),
  uptimeSeconds: z.number(),
});
