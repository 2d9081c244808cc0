/**
 * What every statement parser produces: one bank statement of one account, lines in file order.
 * Pure data; amounts are integer kuruş (never a float), dates are calendar days as the bank prints
 * them (Turkey, UTC+3, no DST), a time only when the format carries one.
 */
export type LineDirection = 'credit' | 'debit';

export interface ParsedLine {
  /** The bank's own reference of the entry (camt AcctSvcrRef, MT940 bank reference, a CSV column). */
  bankReference?: string;
  /** YYYY-MM-DD, the booking day. */
  bookedOn: string;
  /** ISO UTC instant when the format gives a booking time. */
  bookedAt?: string;
  valueOn?: string;
  direction: LineDirection;
  /** Always positive; the direction says which way. */
  amountKurus: bigint;
  /** Free text as printed: the remittance information, where the customer writes `TG-<id>`. */
  description: string;
  counterpartyName?: string;
  counterpartyIban?: string;
}

export interface ParsedStatement {
  format: StatementFormat;
  accountIban?: string;
  openingBalanceKurus?: bigint;
  closingBalanceKurus?: bigint;
  lines: ParsedLine[];
  /** Entries left out on purpose (pending camt.052 entries), with why: shown in the import report. */
  skipped: Array<{ at: string; reason: string }>;
  /** What was imported other than as printed (a text cut to its bound), with where: shown in the import report. */
  warnings: StatementProblem[];
}

export const STATEMENT_FORMATS = ['camt053', 'camt052', 'mt940', 'csv', 'xlsx'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/** One reason a file is refused; `at` says where (line number, entry index, row). */
export interface StatementProblem {
  at: string;
  message: string;
  /** A balance that does not add up: closing − (opening + credits − debits), integer kuruş as text. */
  differenceKurus?: string;
}

/** A file is accepted or refused whole: this carries every problem found, not only the first. */
export class StatementRefusedError extends Error {
  constructor(readonly problems: StatementProblem[]) {
    super(
      `statement refused: ${problems
        .slice(0, 5)
        .map((p) => `${p.at}: ${p.message}`)
        .join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
    );
    this.name = 'StatementRefusedError';
  }
}

/** Collects problems while a parser walks a file, then refuses the whole file if there were any. */
export class ProblemList {
  readonly problems: StatementProblem[] = [];
  add(at: string, message: string, extra?: Pick<StatementProblem, 'differenceKurus'>): void {
    // Explicit bounds: a garbage file must not build a report of a million lines, nor echo a
    // megabyte of its own text back in one message.
    if (this.problems.length >= MAX_PROBLEMS_REPORTED) return;
    const cut =
      message.length > MAX_PROBLEM_MESSAGE_CHARS ? `${message.slice(0, MAX_PROBLEM_MESSAGE_CHARS)}…` : message;
    this.problems.push({ at, message: cut, ...extra });
  }
  /** Runs `read`; a throw becomes a problem at `at` and the result undefined. */
  attempt<T>(at: string, read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      this.add(at, error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }
  throwIfAny(): void {
    if (this.problems.length > 0) throw new StatementRefusedError(this.problems);
  }
}

export const MAX_PROBLEMS_REPORTED = 100;
/** Characters of one problem's message (it may quote the file's text). */
export const MAX_PROBLEM_MESSAGE_CHARS = 300;
/** Lines per file: a day of a busy receiving account is a few thousand; a year-long export is refused. */
export const MAX_LINES_PER_STATEMENT = 200_000;
/** Bytes per file (raw upload). */
export const MAX_STATEMENT_BYTES = 32 * 1024 * 1024;
