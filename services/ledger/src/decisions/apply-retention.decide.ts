import { MAX_RETENTION_SUBJECTS_PER_EVENT, domainEvent, type DomainEvent } from '@transfergate/contracts';

export interface ApplyRetentionCommand {
  runId: string;
  asOfMs: number;
  defaultYears: number;
}

/** What the key table says is past its period, and what it covers (loaded before deciding). */
export interface RetentionContext {
  /** Subjects past their period and on no legal hold. */
  subjectIds: readonly string[];
  transactions: number;
  statementLines: number;
}

/**
 * A retention pass (docs/decisions/0067-personal-data.md): erases exactly the subjects the key table
 * found past their period; nothing to erase is no event. Bounded like the listing it decides on.
 */
export function decideApplyRetention(
  command: ApplyRetentionCommand,
  context: RetentionContext,
): DomainEvent<'RetentionApplied'> | null {
  if (context.subjectIds.length === 0) return null;
  if (context.subjectIds.length > MAX_RETENTION_SUBJECTS_PER_EVENT) {
    throw new Error(`retention invariant: at most ${MAX_RETENTION_SUBJECTS_PER_EVENT} subjects per pass`);
  }
  return domainEvent('RetentionApplied', {
    runId: command.runId,
    asOf: new Date(command.asOfMs).toISOString(),
    defaultYears: command.defaultYears,
    subjectIds: [...context.subjectIds],
    transactions: context.transactions,
    statementLines: context.statementLines,
  });
}
