import { z } from 'zod';

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
