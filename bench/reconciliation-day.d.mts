// Types of bench/reconciliation-day.mjs for the TypeScript tests that use it.
export interface DayDeposit {
  transactionId: string;
  number: number;
  state: 'awaiting_payment';
  amountKurus: bigint;
  names: string[];
  createdAtMs: number;
  expiresAtMs: number;
  matched: boolean;
}
export interface DayLine {
  ref: string;
  direction: 'credit' | 'debit';
  atMs: number;
  amountKurus: bigint;
  description: string;
  name?: string;
  truth: number | null;
  eligible: boolean;
}
export interface Day {
  deposits: DayDeposit[];
  lines: DayLine[];
}
export interface DayScore {
  lines: number;
  eligible: number;
  strong: number;
  correct: number;
  precision: number;
  recall: number;
  wrongStrong: Array<{ ref: string; truth: number | null; strong: number }>;
}
export function generateDay(o: {
  deposits: number;
  seed?: number;
  baseMs?: number;
  firstNumber?: number;
  padLinesTo?: number;
}): Day;
export function scoreOutcomes(day: Day, strongOf: (line: DayLine) => number | undefined): DayScore;
export function scoreDay(
  day: Day,
  matcher: new (deposits: DayDeposit[]) => { assess(line: unknown): { strong?: { number: number } } },
): DayScore & { matchMs: number };
export function isBankasiCsv(day: Day): string;
export function camt053(day: Day, iban: string): string;
