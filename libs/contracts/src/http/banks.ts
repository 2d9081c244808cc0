import { z } from 'zod';

/**
 * GET /banks: the banks customers can pay into (the contract leaves the body open).
 * Decision: one item per bank with an active receiving account, `{ id, name, code, fast }`, in the
 * `{ success: true, data: [...] }` envelope of the other success bodies. `id` is an opaque string,
 * `code` the bank's short code, `fast` whether a FAST (instant) transfer is possible.
 */

export const BankItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  fast: z.boolean(),
});
export type BankItem = z.infer<typeof BankItemSchema>;

export const BanksResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(BankItemSchema),
});
export type BanksResponse = z.infer<typeof BanksResponseSchema>;
