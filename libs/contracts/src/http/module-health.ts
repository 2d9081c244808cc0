import { z } from 'zod';

/**
 * GET /eqopay/health: the provider module's health ("eqopay" is the contract's brand-derived alias).
 * Unlike GET / it checks what a payment needs: the database answers. When it does not, the answer is
 * 503 with the camel error body (`{ success: false, message, errorCode: 'unavailable' }`).
 */
export const ModuleHealthResponseSchema = z.object({
  status: z.literal('ok'),
  /** The module alias, `eqopay`. */
  module: z.string(),
  database: z.literal('ok'),
  /** Round trip of a `select 1`, in milliseconds. */
  databaseLatencyMs: z.number().int().nonnegative(),
});
export type ModuleHealthResponse = z.infer<typeof ModuleHealthResponseSchema>;
