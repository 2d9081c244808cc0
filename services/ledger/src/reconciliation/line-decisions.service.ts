import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApproveTransactionCommand,
  ChangeAmountCommand,
  DomainError,
  STREAMS,
  type ActorRef,
  type DomainEvent,
  type StatementLineView,
} from '@transfergate/contracts';
import { WrongExpectedVersionError } from '@transfergate/event-store';
import { orThrow } from '../decisions/decision.js';
import { decideDismiss, dismissReasonOf } from '../decisions/dismiss-statement-line.decide.js';
import { decideMatch, type MatchRequest } from '../decisions/match-statement-line.decide.js';
import { MerchantRules } from '../commands/merchant-rules.js';
import { MAX_CONFLICT_RETRIES } from '../ledger.settings.js';
import { LedgerRepository, type PendingWrite } from '../persistence/ledger-repository.js';
import { ReconciliationStore } from './reconciliation-store.js';

export type { MatchRequest } from '../decisions/match-statement-line.decide.js';

/**
 * Matching a statement line to a deposit, and dismissing one. A match approves the deposit through
 * the very commands an operator's approve button sends (ChangeAmount first when the received amount
 * is chosen: the requested amount stays in the history, the callback carries the received one), so
 * the ledger postings, the callback and the audit follow as for any approval.
 *
 * Before anything is approved, the line and the deposit are claimed for each other in one atomic
 * append (`statement-line-claim-<line>` and `statement-match-<deposit>`, both no_stream). Those
 * streams exist once, in every ledger process alike, so a line pays one deposit, a deposit is paid by
 * one line, and a dismissed line (its dismissal claims the line too) approves nothing, whatever races.
 */
@Injectable()
export class LineDecisions {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly store: ReconciliationStore,
    private readonly commands: CommandBus,
    private readonly rules: MerchantRules,
  ) {}

  /**
   * Decisions on one line run one at a time in this process, so a double click costs no refused
   * claim; across processes the claims decide (see above).
   */
  private readonly running = new Map<string, Promise<unknown>>();

  private serially<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.running.get(key) ?? Promise.resolve();
    const next = before.then(work, work);
    const settled = next.catch(() => undefined);
    this.running.set(key, settled);
    void settled.then(() => {
      if (this.running.get(key) === settled) this.running.delete(key);
    });
    return next;
  }

  match(request: MatchRequest): Promise<StatementLineView> {
    return this.serially(`line:${request.lineId}`, () =>
      this.serially(`txn:${request.transactionId}`, () => this.matchNow(request)),
    );
  }

  /** Load the line, the deposit and its match; decide (decideMatch); claim, approve, record. */
  private async matchNow(request: MatchRequest): Promise<StatementLineView> {
    const line = await this.store.line(request.lineId);
    const txn = line?.state === 'queued' ? await this.repository.loadTransaction(request.transactionId) : undefined;
    const matchedLineId = txn ? await this.store.matchedLineOf(request.transactionId) : undefined;
    const merchant = txn && request.amount === 'received' ? await this.rules.of(txn.view.merchantId) : undefined;
    const plan = orThrow(decideMatch(request, { line, transaction: txn?.view, matchedLineId, merchant }));
    await this.claimForMatch(plan.claim, request.transactionId, request.actor);
    if (plan.changeAmountKurus !== undefined) {
      await this.commands.execute(
        new ChangeAmountCommand({
          transactionId: request.transactionId,
          amountKurus: plan.changeAmountKurus,
          actor: request.actor,
        }),
      );
    }
    if (plan.approve) {
      await this.commands.execute(
        new ApproveTransactionCommand({
          transactionId: request.transactionId,
          actor: request.actor,
          ...(request.allowExpired ? { allowExpired: true } : {}),
        }),
      );
    }
    await this.appendDecision(line!.bankAccountId, line!.lineId, plan.matched, undefined, request.actor);
    return (await this.store.line(line!.lineId))!;
  }

  /**
   * Claims the line and the transaction for each other, or refuses with line_decided. A claim of
   * this very pair found in place is a match that stopped after claiming (a crash, a timeout): it
   * goes on from there, and the approval it repeats is idempotent.
   */
  private async claimForMatch(claim: PendingWrite[], transactionId: string, actor: ActorRef): Promise<void> {
    const lineClaim = claim[0]!.streamId;
    try {
      await this.repository.append(claim, actor);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      const claim = (await this.repository.readFirstData(lineClaim)) as
        { decision?: string; transactionId?: string } | undefined;
      if (claim?.decision === 'match' && claim.transactionId === transactionId) return;
      throw new DomainError(
        'line_decided',
        claim ? 'the statement line was decided meanwhile' : 'the deposit was matched to another line meanwhile',
      );
    }
  }

  dismiss(lineId: string, reason: string, actor: ActorRef): Promise<StatementLineView> {
    return this.serially(`line:${lineId}`, () => this.dismissNow(lineId, reason, actor));
  }

  private async dismissNow(lineId: string, reason: string, actor: ActorRef): Promise<StatementLineView> {
    const command = { lineId, reason, actor };
    orThrow(dismissReasonOf(command));
    const line = await this.store.line(lineId);
    const plan = orThrow(decideDismiss(command, { line }));
    await this.appendDecision(line!.bankAccountId, lineId, plan.dismissed, plan.claim, actor);
    return (await this.store.line(lineId))!;
  }

  /**
   * Appends a decision at the account stream's version (so a concurrent decision on the same line is
   * seen), with the claim when there is one. A lost race re-reads the line: decided meanwhile is
   * `line_decided`, anything else of the account (another line) is simply retried.
   */
  private async appendDecision(
    bankAccountId: string,
    lineId: string,
    event: DomainEvent,
    claim: PendingWrite | undefined,
    actor: ActorRef,
  ): Promise<void> {
    const stream = STREAMS.bankStatement(bankAccountId);
    for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
      const head = await this.store.head(stream);
      const line = await this.store.line(lineId);
      if (line?.state !== 'queued')
        throw new DomainError('line_decided', `the statement line is ${line?.state} already`);
      try {
        await this.repository.append(
          [{ streamId: stream, expectedVersion: head.version, events: [event] }, ...(claim ? [claim] : [])],
          actor,
        );
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (claim && error.streamId === claim.streamId) {
          throw new DomainError('line_decided', 'the statement line was decided meanwhile');
        }
      }
    }
    throw new DomainError('concurrency_conflict', 'the account is changing too fast; retry');
  }
}
