import { Command, Query } from '@nestjs/cqrs';
import type { ActorRef } from '../commands/transaction-commands.js';
import type { CsvMapping, CsvPreset } from './csv-mapping.js';
import type { MatchCandidate, LineDifference } from './events.js';

export type StatementFormatName = 'camt053' | 'camt052' | 'mt940' | 'csv' | 'xlsx';

export interface StatementImportReport {
  importId: string;
  bankAccountId: string;
  format: StatementFormatName;
  fileName: string;
  linesInFile: number;
  linesNew: number;
  linesAlreadyImported: number;
  credits: number;
  debits: number;
  skipped: Array<{ at: string; reason: string }>;
  /**
   * What was imported other than as printed: a text longer than its standard allows (camt's Ustrd
   * is 140 characters) cut to its bound, with where (entry, row or tag line). Bounded in number.
   */
  warnings: Array<{ at: string; message: string }>;
  /** New credit lines matched and approved (or linked) by themselves. */
  autoMatched: number;
  /** New credit lines with a strong match waiting for one click (automatic approval is off). */
  strongWaiting: number;
  queued: number;
  /** New debit lines linked by themselves to the approved withdrawal they pay out. */
  debitsLinked: number;
  openingBalanceKurus?: string;
  closingBalanceKurus?: string;
  /** An automatic approval refused by the ledger (the deposit moved meanwhile): the line stays queued. */
  autoFailures: Array<{ lineId: string; number: number; errorCode: string }>;
}

export class ImportStatementCommand extends Command<StatementImportReport> {
  constructor(
    readonly input: {
      bankAccountId: string;
      format: StatementFormatName;
      fileName: string;
      /** The file's bytes, base64 (commands travel as JSON between processes). */
      contentBase64: string;
      preset?: CsvPreset;
      mapping?: CsvMapping;
      actor: ActorRef;
    },
  ) {
    super();
  }
}

/**
 * What the queue shows of a candidate beside its `TG-<number>`: the transaction as it stands now (the
 * candidate itself is the matcher's view at import time), so an operator sees whose it is, for how
 * much, and whether it was approved already (then matching only links the line to it).
 */
export interface CandidateTransaction {
  customerName: string;
  amountKurus: string;
  state: string;
}

export interface StatementLineView {
  lineId: string;
  bankAccountId: string;
  importId: string;
  bankReference?: string;
  bookedOn: string;
  bookedAt?: string;
  direction: 'credit' | 'debit';
  amountKurus: string;
  description: string;
  counterpartyName?: string;
  counterpartyIban?: string;
  state: 'queued' | 'matched' | 'dismissed';
  differences: LineDifference[];
  candidates: Array<MatchCandidate & { transaction?: CandidateTransaction }>;
  transactionId?: string;
  number?: number;
  decision?: string;
  mode?: 'auto' | 'operator';
  reason?: string;
  decidedBy?: string;
  decidedAt?: string;
  /**
   * A match's answer only: the received amount differs from the deposit's beyond the four-eyes
   * limits, so the line stays queued and the amount change waits for a second operator.
   */
  amountChangeWaiting?: { transactionId: string; requestId: string; toKurus: string };
}

export class MatchStatementLineCommand extends Command<StatementLineView> {
  constructor(
    readonly input: {
      lineId: string;
      transactionId: string;
      /** requested: approve at the deposit's amount; received: change it to the line's amount first. */
      amount: 'requested' | 'received';
      allowExpired: boolean;
      actor: ActorRef;
    },
  ) {
    super();
  }
}

export class DismissStatementLineCommand extends Command<StatementLineView> {
  constructor(readonly input: { lineId: string; reason: string; actor: ActorRef }) {
    super();
  }
}

export class ConfigureReconciliationCommand extends Command<{
  infrastructureId: string;
  autoApprove: boolean;
  changed: boolean;
}> {
  constructor(readonly input: { infrastructureId: string; autoApprove: boolean; actor: ActorRef }) {
    super();
  }
}

export interface ReconciliationQueuePage {
  items: StatementLineView[];
  /** Open (queued) lines of the filter, all pages. */
  total: number;
}

export class ListStatementLinesQuery extends Query<ReconciliationQueuePage> {
  constructor(
    readonly filter: {
      bankAccountId?: string;
      state?: 'queued' | 'matched' | 'dismissed';
      direction?: 'credit' | 'debit';
      limit: number;
      offset: number;
    },
  ) {
    super();
  }
}

export class GetStatementLineQuery extends Query<StatementLineView | null> {
  constructor(readonly lineId: string) {
    super();
  }
}

export interface ReconciliationSettingsView {
  infrastructureId: string;
  autoApprove: boolean;
}

export class GetReconciliationSettingsQuery extends Query<ReconciliationSettingsView[]> {}

/** One receiving account over Turkish days [from, to]: its statements beside what the gateway issued and approved. */
export interface ReconciliationSummary {
  bankAccountId: string;
  from: string;
  to: string;
  statement: {
    /** Opening balance of the earliest import starting in the range, closing of the latest ending in it. */
    openingBalanceKurus?: string;
    closingBalanceKurus?: string;
    creditsKurus: string;
    debitsKurus: string;
    creditLines: number;
  };
  matchedKurus: string;
  dismissedKurus: string;
  /** Credits still in the queue: money received that no deposit accounts for yet. */
  unmatchedKurus: string;
  unmatchedLines: number;
  deposits: {
    issuedKurus: string;
    issued: number;
    approvedKurus: string;
    approved: number;
    /** Approved deposits no statement line is matched to (approved by eye, or not imported yet). */
    approvedWithoutLineKurus: string;
    approvedWithoutLine: number;
  };
}

export class GetReconciliationSummaryQuery extends Query<ReconciliationSummary> {
  constructor(readonly input: { bankAccountId: string; from: string; to: string }) {
    super();
  }
}

/** Every line of an account booked in [from, to] (the CSV report), at most MAX_REPORT_LINES. */
export class ListStatementLinesForReportQuery extends Query<StatementLineView[]> {
  constructor(readonly input: { bankAccountId: string; from: string; to: string }) {
    super();
  }
}

export const MAX_REPORT_LINES = 200_000;
