import { z } from 'zod';

/**
 * A store written before personal fields were encrypted was upgraded in place
 * (docs/decisions/0067-personal-data.md, "Existing stores"): its personal fields were encrypted and
 * the rewritten streams' chains computed again. The old heads stay in es_chain_epochs; their digest
 * is recorded here, in the new chain, so an auditor follows the history across the upgrade.
 */
export const PersonalDataEncryptedV1 = z.object({
  epoch: z.string().min(1).max(64),
  eventsRewritten: z.number().int().nonnegative(),
  streamsRechained: z.number().int().nonnegative(),
  /** sha256 over `<stream id> <old head, hex>\n` of every stream with personal events, in stream order. */
  oldHeadsSha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** Longest reason an erasure records (it must say why, never name the customer). */
export const MAX_ERASURE_REASON_CHARS = 500;
/** Most subjects (identities) one erasure destroys the keys of. */
export const MAX_ERASURE_SUBJECTS = 16;

/**
 * A customer's data keys were destroyed (crypto-shredding): requested by one admin with a reason,
 * confirmed by another. Names the customer only by the pseudonymous subject ids of the key table.
 */
export const CustomerErasedV1 = z.object({
  erasureId: z.uuid(),
  subjectIds: z
    .array(z.string().regex(/^[0-9a-f]{32}$/))
    .min(1)
    .max(MAX_ERASURE_SUBJECTS),
  keysDestroyed: z.number().int().positive(),
  transactions: z.number().int().nonnegative(),
  statementLines: z.number().int().nonnegative(),
  reason: z.string().min(1).max(MAX_ERASURE_REASON_CHARS),
  /** Operator ids: the admin who asked and the second admin who confirmed. */
  requestedBy: z.string().min(1),
  confirmedBy: z.string().min(1),
});

/** Most subjects one retention pass erases (and one RetentionApplied event names). */
export const MAX_RETENTION_SUBJECTS_PER_EVENT = 1_000;

/**
 * The retention policy erased customers whose last transaction is older than their period
 * (default 8 years, MASAK 5549; longer per merchant) and who are on no legal hold.
 */
export const RetentionAppliedV1 = z.object({
  runId: z.uuid(),
  /** The moment the periods were counted back from. */
  asOf: z.iso.datetime(),
  defaultYears: z.number().int().min(1).max(100),
  subjectIds: z
    .array(z.string().regex(/^[0-9a-f]{32}$/))
    .min(1)
    .max(MAX_RETENTION_SUBJECTS_PER_EVENT),
  transactions: z.number().int().nonnegative(),
  statementLines: z.number().int().nonnegative(),
});
