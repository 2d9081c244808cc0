import { z } from 'zod';
import {
  MAX_BLOCKLIST_ENTRIES_PER_EVENT,
  MAX_BLOCKLIST_IMPORT_ROWS,
  MAX_BLOCKLIST_VALUE_LENGTH,
  MAX_RISK_REASON_LENGTH,
  RISK_ACTIONS,
  RiskCheckSchema,
  RiskScopeSchema,
} from './risk-events.js';

/** POST /panel/risk/rules/save: a new rule (no ruleId) or the whole changed rule. */
export const RiskRuleSaveRequestSchema = z.strictObject({
  ruleId: z.string().min(1).max(100).optional(),
  name: z.string().trim().min(1).max(200),
  scope: RiskScopeSchema,
  check: RiskCheckSchema,
  action: z.enum(RISK_ACTIONS),
  active: z.boolean().default(true),
});

const EntryInputSchema = z.strictObject({
  value: z.string().min(1).max(MAX_BLOCKLIST_VALUE_LENGTH),
  reason: z.string().max(MAX_RISK_REASON_LENGTH).default(''),
  expiresAt: z.iso.datetime().optional(),
});

/**
 * POST /panel/risk/rules/:id/entries: entries as JSON, or a CSV text (`value,reason,expiresAt`, an
 * optional header row; values with commas in double quotes).
 */
export const BlocklistEntriesRequestSchema = z.union([
  z.strictObject({ entries: z.array(EntryInputSchema).min(1).max(MAX_BLOCKLIST_IMPORT_ROWS) }),
  z.strictObject({
    csv: z
      .string()
      .min(1)
      .max(MAX_BLOCKLIST_IMPORT_ROWS * 800),
  }),
]);

/** POST /panel/risk/rules/:id/entries/remove. */
export const BlocklistRemoveRequestSchema = z.strictObject({
  values: z.array(z.string().min(1).max(MAX_BLOCKLIST_VALUE_LENGTH)).min(1).max(MAX_BLOCKLIST_ENTRIES_PER_EVENT),
});

export const BlocklistEntriesQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
