import {
  DomainError,
  STREAMS,
  domainEvent,
  kurusToDecimalString,
  type ActorRef,
  type DomainEvent,
  type EventData,
  type LineDifference,
  type StatementLineView,
  type TransactionView,
} from '@transfergate/contracts';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import type { FourEyesLimits } from '../ledger.settings.js';
import { needsSecondOperator } from './change-amount.decide.js';
import { by, type Decided } from './decision.js';
import { amountRangeRefusal } from './merchant-limits.js';

export interface MatchRequest {
  lineId: string;
  transactionId: string;
  amount: 'requested' | 'received';
  allowExpired: boolean;
  actor: ActorRef;
  mode: 'auto' | 'operator';
  score?: number;
  reasons?: string[];
}

/** What a match is decided from, loaded by LineDecisions. */
export interface MatchState {
  /** The statement line as the reconciliation read model holds it; undefined when unknown. */
  line: StatementLineView | undefined;
  /** The transaction as its stream folds; undefined when unknown. */
  transaction: TransactionView | undefined;
  /** The line this transaction is matched to already, if any. */
  matchedLineId: string | undefined;
  /** The transaction's merchant's rules: the range a received amount must keep to (loaded for one). */
  merchant?: EventData<'MerchantConfigured'> | undefined;
  /** When an amount change waits for a second operator; absent: none waits. */
  fourEyes?: FourEyesLimits;
}

/** What a match does, in order: claim the pair, set the received amount, approve, record the match. */
export interface MatchPlan {
  /** The line and the transaction claimed for each other (both no_stream). */
  claim: PendingWrite[];
  /** The amount the deposit is set to before its approval (the received amount), when it differs. */
  changeAmountKurus: bigint | undefined;
  /** Whether the deposit is approved; an approved deposit (or a withdrawal) is only linked. */
  approve: boolean;
  /** The decision on the line, appended to its account's statement stream last. */
  matched: DomainEvent<'StatementLineMatched'>;
  /**
   * The received amount differs beyond the four-eyes limits: nothing is claimed or approved; the
   * amount change is asked for (naming the line) and the line stays queued. Once another operator
   * approves the change, the line matches at the deposit's amount, which is then the received one.
   */
  waitsForSecondOperator: boolean;
}

/** A line still waiting for a decision, or the refusal (unknown, or decided already). */
export function queuedLineRefusal(line: StatementLineView | undefined): DomainError | undefined {
  if (!line) return new DomainError('not_found', 'no such statement line');
  if (line.state !== 'queued') {
    return new DomainError('line_decided', `the statement line is ${line.state} already`, { state: line.state });
  }
  return undefined;
}

/**
 * Matching a queued statement line to a transaction. A credit line pays a deposit of its own
 * account: an open one is approved (at its amount, or at the line's when the operator chooses the
 * received amount), an approved one is linked, a rejected one is refused (dismiss the line instead),
 * an expired one needs the permission to approve expired deposits; a received amount outside the
 * merchant's range is refused. A debit line pays out an approved
 * withdrawal and is only linked. A transaction is matched to one line at most (paid twice: dismiss
 * the second). The differences recorded are the line's against the deposit (paid less or more,
 * after expiry, by a third party). A received amount whose difference needs a second operator
 * (the four-eyes limits against the requested amount) claims nothing: the change is asked for instead.
 */
export function decideMatch(command: MatchRequest, state: MatchState): Decided<MatchPlan> {
  const lineRefusal = queuedLineRefusal(state.line);
  if (lineRefusal) return lineRefusal;
  const line = state.line!;
  const txn = state.transaction;
  if (line.direction === 'debit') {
    if (!txn || txn.type !== 'withdrawal') return new DomainError('transaction_not_found', 'no such withdrawal');
    if (txn.state !== 'approved') {
      return new DomainError('invalid_state_transition', `TG-${txn.number} is not approved: approve it first`);
    }
  } else if (!txn || txn.type !== 'deposit') {
    return new DomainError('transaction_not_found', 'no such deposit');
  }
  if (txn.type === 'deposit' && txn.bankAccount?.bankAccountId !== line.bankAccountId) {
    return new DomainError('validation_failed', `TG-${txn.number} was paid into another account`);
  }
  if (state.matchedLineId) {
    return new DomainError(
      'line_decided',
      `TG-${txn.number} is matched to another line: dismiss this one (paid twice)`,
      {
        lineId: state.matchedLineId,
      },
    );
  }
  if (txn.state === 'rejected') {
    return new DomainError('invalid_state_transition', `TG-${txn.number} was rejected: dismiss the line instead`);
  }
  if (txn.state === 'expired' && !command.allowExpired) {
    return new DomainError(
      'permission_denied',
      `TG-${txn.number} expired: approving it needs transactions.approve_expired`,
    );
  }
  const lineAmount = BigInt(line.amountKurus);
  const requested = txn.amountKurus;
  const link = txn.state === 'approved';
  const changeAmountKurus =
    !link && command.amount === 'received' && lineAmount !== BigInt(requested) ? lineAmount : undefined;
  if (changeAmountKurus !== undefined && state.merchant) {
    // Refused before the claim: the deposit keeps its amount and the line stays queued.
    const outOfRange = amountRangeRefusal(state.merchant, changeAmountKurus);
    if (outOfRange) {
      return new DomainError(
        'amount_out_of_range',
        `TG-${txn.number}: the received amount ${kurusToDecimalString(changeAmountKurus)} TRY is outside the merchant's range (${outOfRange.details!.minAmount} to ${outOfRange.details!.maxAmount} TRY): approve at the requested amount or dismiss the line`,
        outOfRange.details,
      );
    }
  }
  const waitsForSecondOperator =
    changeAmountKurus !== undefined &&
    needsSecondOperator(BigInt(txn.originalAmountKurus), changeAmountKurus, state.fourEyes);
  if (changeAmountKurus !== undefined && txn.pendingAmountChange) {
    return new DomainError(
      'amount_change_pending',
      `TG-${txn.number}: an amount change waits for a second operator already: approve or reject it first`,
      { requestId: txn.pendingAmountChange.requestId },
    );
  }
  const matched = domainEvent('StatementLineMatched', {
    lineId: line.lineId,
    bankAccountId: line.bankAccountId,
    transactionId: command.transactionId,
    number: txn.number,
    mode: command.mode,
    decision: link ? 'link' : changeAmountKurus !== undefined ? 'approve_received' : 'approve',
    lineAmountKurus: line.amountKurus,
    requestedAmountKurus: requested,
    differences: differencesOf(lineAmount, BigInt(requested), txn.state, line),
    ...(command.score !== undefined ? { score: command.score } : {}),
    reasons: command.reasons ?? [],
    by: by(command.actor),
  });
  return {
    claim: matchClaim(line, command.transactionId),
    changeAmountKurus,
    approve: !link,
    matched,
    waitsForSecondOperator,
  };
}

/** The line and the transaction claimed for each other: each stream exists once, whatever races. */
export function matchClaim(
  line: Pick<StatementLineView, 'lineId' | 'bankAccountId'>,
  transactionId: string,
): PendingWrite[] {
  return [
    {
      streamId: STREAMS.statementLineClaim(line.lineId),
      expectedVersion: 'no_stream',
      events: [
        domainEvent('StatementLineClaimed', {
          lineId: line.lineId,
          bankAccountId: line.bankAccountId,
          decision: 'match',
          transactionId,
        }),
      ],
    },
    {
      streamId: STREAMS.statementMatch(transactionId),
      expectedVersion: 'no_stream',
      events: [
        domainEvent('StatementMatchClaimed', { transactionId, lineId: line.lineId, bankAccountId: line.bankAccountId }),
      ],
    },
  ];
}

/** What differs between a line and the deposit it is matched to (for the record of the decision). */
export function differencesOf(
  lineAmount: bigint,
  requested: bigint,
  state: string,
  line: { candidates: Array<{ differences: LineDifference[] }> },
): LineDifference[] {
  const out = new Set<LineDifference>();
  if (lineAmount < requested) out.add('paid_less');
  if (lineAmount > requested) out.add('paid_more');
  if (state === 'expired') out.add('paid_after_expiry');
  for (const c of line.candidates) for (const d of c.differences) if (d === 'third_party') out.add(d);
  return [...out];
}
