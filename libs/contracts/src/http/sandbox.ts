import { z } from 'zod';
import { StatusRequestFieldsSchema } from './merchant.js';

/** What an integrator may do to a sandbox provider's own transaction (POST /sandbox/transactions/{id}/{action}). */
export const SANDBOX_ACTIONS = ['approve', 'reject'] as const;
export type SandboxAction = (typeof SANDBOX_ACTIONS)[number];

/**
 * The optional body (or query) of a sandbox action: the credentials and `by` as POST /status takes
 * them, and for a rejection the reason its callback carries.
 */
export const SandboxActionRequestSchema = StatusRequestFieldsSchema.extend({
  reason: z.string().trim().min(1).max(500).optional(),
});
export type SandboxActionRequest = z.infer<typeof SandboxActionRequestSchema>;
