import { z } from 'zod';
import { KurusStringSchema } from '../money/kurus.js';
import { declarePersonalData } from '../events/personal-data.js';

/**
 * Reconciliation events. Lines, their assessment and every decision on them live in one stream per
 * receiving account (`bank-statement-<bankAccountId>`), appended with its expected version, so
 * imports and decisions of one account are serialised; a match also claims its deposit in
 * `statement-match-<transactionId>` (no_stream), so one deposit is never matched to two lines.
 */
export const STATEMENT_FORMAT_VALUES = ['camt053', 'camt052', 'mt940', 'csv', 'xlsx'] as const;
export const StatementFormatSchema = z.enum(STATEMENT_FORMAT_VALUES);

/** Why a line is not simply "paid as asked": each is an explicit state with an operator decision. */
export const LINE_DIFFERENCES = [
  'paid_less',
  'paid_more',
  'paid_after_expiry',
  'paid_twice',
  'third_party',
  'unknown_credit',
] as const;
export const LineDifferenceSchema = z.enum(LINE_DIFFERENCES);
export type LineDifference = z.infer<typeof LineDifferenceSchema>;

const ByActor = z.object({ operatorId: z.string().optional(), source: z.string() });

export const StatementImportedV1 = z.object({
  importId: z.uuid(),
  bankAccountId: z.string(),
  format: StatementFormatSchema,
  fileName: z.string(),
  fileSha256: z.string(),
  linesInFile: z.number().int().nonnegative(),
  linesNew: z.number().int().nonnegative(),
  linesAlreadyImported: z.number().int().nonnegative(),
  skipped: z.array(z.object({ at: z.string(), reason: z.string() })).max(100),
  openingBalanceKurus: KurusStringSchema.optional(),
  closingBalanceKurus: KurusStringSchema.optional(),
  firstDay: z.string().optional(),
  lastDay: z.string().optional(),
  by: ByActor,
});
export const StatementImportedPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { fileName: 'the name of the bank statement file an operator uploaded' },
});

export const StatementLineImportedV1 = z.object({
  lineId: z.uuid(),
  importId: z.uuid(),
  bankAccountId: z.string(),
  /** How the line is known again in a later file: the bank's reference, else a hash of its fields. */
  identity: z.string(),
  bankReference: z.string().optional(),
  bookedOn: z.string(),
  bookedAt: z.iso.datetime().optional(),
  valueOn: z.string().optional(),
  direction: z.enum(['credit', 'debit']),
  amountKurus: KurusStringSchema,
  description: z.string(),
  counterpartyName: z.string().optional(),
  counterpartyIban: z.string().optional(),
});
/**
 * The payer of a statement line: the counterparty's name and IBAN, and the description (which often
 * carries the payer's name). The line's identity is the bank's reference or a hash of its fields.
 */
export const StatementLineImportedPersonalData = declarePersonalData({
  personal: ['description', 'counterpartyName', 'counterpartyIban'],
  notPersonal: { identity: "the bank's reference or a hash of the line's fields, never readable text" },
  subject: { name: 'counterpartyName', ibans: ['counterpartyIban'] },
});

export const MatchCandidateSchema = z.object({
  transactionId: z.uuid(),
  number: z.number().int(),
  /** 0..100 */
  score: z.number().int().min(0).max(100),
  reasons: z.array(z.string()).max(10),
  differences: z.array(LineDifferenceSchema),
  /** Matching it needs nothing but a confirmation: a reference or a unique name, the exact amount, in time. */
  strong: z.boolean(),
});
export type MatchCandidate = z.infer<typeof MatchCandidateSchema>;

/** The matcher's view of a new line: its candidates, best first (at most 5). */
export const StatementLineAssessedV1 = z.object({
  lineId: z.uuid(),
  bankAccountId: z.string(),
  candidates: z.array(MatchCandidateSchema).max(5),
  /** The line's own difference when it has no candidate (unknown credit). */
  differences: z.array(LineDifferenceSchema),
});

export const MATCH_DECISIONS = ['approve', 'approve_received', 'link'] as const;

export const StatementLineMatchedV1 = z.object({
  lineId: z.uuid(),
  bankAccountId: z.string(),
  transactionId: z.uuid(),
  number: z.number().int(),
  mode: z.enum(['auto', 'operator']),
  /** approve: approved at its amount; approve_received: amount changed to the line's, then approved; link: it was approved already. */
  decision: z.enum(MATCH_DECISIONS),
  lineAmountKurus: KurusStringSchema,
  requestedAmountKurus: KurusStringSchema,
  differences: z.array(LineDifferenceSchema),
  score: z.number().int().min(0).max(100).optional(),
  reasons: z.array(z.string()).max(10),
  by: ByActor,
});

export const StatementMatchClaimedV1 = z.object({
  transactionId: z.uuid(),
  lineId: z.uuid(),
  bankAccountId: z.string(),
});

/**
 * The line's decision lock (stream `statement-line-claim-<line>`, appended with no_stream): the first
 * decision to claim a line, in any ledger process, is the only one. A match claims it before it
 * approves anything; a dismissal claims it with the dismissal itself.
 */
export const StatementLineClaimedV1 = z.object({
  lineId: z.uuid(),
  bankAccountId: z.string(),
  decision: z.enum(['match', 'dismiss']),
  /** The transaction a match is for. */
  transactionId: z.uuid().optional(),
});

export const StatementLineDismissedV1 = z.object({
  lineId: z.uuid(),
  bankAccountId: z.string(),
  reason: z.string().min(1).max(500),
  differences: z.array(LineDifferenceSchema),
  by: ByActor,
});

export const ReconciliationSettingsConfiguredV1 = z.object({
  infrastructureId: z.string(),
  /** A strong match approves the deposit by itself (through the operator's approve command). Off by default. */
  autoApprove: z.boolean(),
  by: ByActor,
});
