import { declarePersonalData } from '../events/personal-data.js';
import { z } from 'zod';
import { KurusStringSchema } from '../money/kurus.js';

/**
 * Risk rules and their hits. Every rule change is an event of the one `risk-rules` stream (so the
 * ledger's in-memory index folds a single stream, and admin changes are serialised by its version);
 * each event names the rule and the rule's version after it.
 */

/** Bounds: the index is in memory, so everything that can grow has a named limit. */
export const MAX_RISK_RULES = 200;
export const MAX_BLOCKLIST_ENTRIES = 1_000_000;
/** Entries per event (a CSV import of more is several events). */
export const MAX_BLOCKLIST_ENTRIES_PER_EVENT = 1_000;
/** Rows of one CSV import request. */
export const MAX_BLOCKLIST_IMPORT_ROWS = 100_000;
export const MAX_BLOCKLIST_VALUE_LENGTH = 200;
export const MAX_RISK_REASON_LENGTH = 500;

/** What a hit does: refuse the request, hold it for an operator (state `held`), or flag it (a badge). */
export const RISK_ACTIONS = ['refuse', 'hold', 'flag'] as const;
export type RiskAction = (typeof RISK_ACTIONS)[number];

export const RISK_SCOPE_LEVELS = ['global', 'infrastructure', 'merchant'] as const;

/** What a blocklist compares, each value normalised before it is stored and before it is looked up. */
export const BLOCKLIST_FIELDS = ['fullName', 'userId', 'username', 'tckn', 'iban', 'ip', 'email', 'phone'] as const;
export type BlocklistField = (typeof BLOCKLIST_FIELDS)[number];

/**
 * Velocity limits per customer (user id, else normalised full name). Counts are per rolling hour or
 * day; `depositAmountPerDay` and `firstDeposit` are kuruş; `withdrawalAfterDeposit` is minutes.
 */
export const VELOCITY_LIMITS = [
  'depositsPerHour',
  'depositsPerDay',
  'depositAmountPerDay',
  'withdrawalsPerDay',
  'firstDeposit',
  'withdrawalAfterDeposit',
] as const;
export type VelocityLimit = (typeof VELOCITY_LIMITS)[number];

export const RiskScopeSchema = z.discriminatedUnion('level', [
  z.object({ level: z.literal('global') }),
  z.object({ level: z.literal('infrastructure'), id: z.string().min(1).max(100) }),
  z.object({ level: z.literal('merchant'), id: z.string().min(1).max(100) }),
]);
export type RiskScope = z.infer<typeof RiskScopeSchema>;

export const RiskCheckSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('blocklist'), field: z.enum(BLOCKLIST_FIELDS) }),
  z.object({ kind: z.literal('velocity'), limit: z.enum(VELOCITY_LIMITS), value: KurusStringSchema }),
]);
export type RiskCheck = z.infer<typeof RiskCheckSchema>;

/** The whole rule after a change (the previous event of the rule is the "before"). */
export const RiskRuleConfiguredV1 = z.object({
  ruleId: z.string(),
  version: z.number().int().positive(),
  name: z.string().min(1).max(200),
  scope: RiskScopeSchema,
  check: RiskCheckSchema,
  action: z.enum(RISK_ACTIONS),
  active: z.boolean(),
});
export type RiskRule = z.infer<typeof RiskRuleConfiguredV1>;

export const BlocklistEntrySchema = z.object({
  /** Normalised (see the ledger's risk/normalise.ts). */
  value: z.string().min(1).max(MAX_BLOCKLIST_VALUE_LENGTH),
  reason: z.string().max(MAX_RISK_REASON_LENGTH),
  expiresAt: z.iso.datetime().optional(),
});
export type BlocklistEntry = z.infer<typeof BlocklistEntrySchema>;

/** Entries added to (or replaced on) a blocklist rule. */
export const BlocklistEntriesAddedV1 = z.object({
  ruleId: z.string(),
  version: z.number().int().positive(),
  entries: z.array(BlocklistEntrySchema).min(1).max(MAX_BLOCKLIST_ENTRIES_PER_EVENT),
});

export const BlocklistEntriesRemovedV1 = z.object({
  ruleId: z.string(),
  version: z.number().int().positive(),
  values: z.array(z.string()).min(1).max(MAX_BLOCKLIST_ENTRIES_PER_EVENT),
});

export const RiskHitSchema = z.object({ ruleId: z.string(), version: z.number().int(), action: z.enum(RISK_ACTIONS) });
export type RiskHit = z.infer<typeof RiskHitSchema>;

/** An operator released a held transaction: it goes on from where it started (awaiting payment, pending). */
export const RiskHoldReleasedV1 = z.object({
  transactionId: z.uuid(),
  by: z.object({ operatorId: z.string().optional(), source: z.string() }),
});

/**
 * Rules a request hit. A held or flagged request's hits are in its transaction's stream, after its
 * request event (a hold puts the transaction in state `held`); a refused request has no transaction, so its hits are in `risk-refusals-<merchant>`.
 */
export const RiskRuleHitV1 = z.object({
  transactionId: z.uuid(),
  merchantId: z.string(),
  externalId: z.string(),
  kind: z.enum(['deposit', 'withdrawal']),
  action: z.enum(RISK_ACTIONS),
  hits: z.array(RiskHitSchema).min(1),
});

const BLOCKLIST_VALUE =
  'a blocklist entry (a name, national id, IBAN, IP, e-mail or phone) kept for fraud prevention while its rule holds it and removed with BlocklistEntriesRemoved; not encrypted per customer (docs/decisions/0067-personal-data.md)';

export const RiskRuleConfiguredPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { name: "a risk rule's name, given by an operator" },
});
export const BlocklistEntriesAddedPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { 'entries[].value': BLOCKLIST_VALUE },
});
export const BlocklistEntriesRemovedPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { 'values[]': BLOCKLIST_VALUE },
});
