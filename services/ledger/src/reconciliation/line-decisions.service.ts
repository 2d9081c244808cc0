import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApproveTransactionCommand,
  ChangeAmountCommand,
  DomainError,
  STREAMS,
  domainEvent,
  isDomainError,
  type ActorRef,
  type DomainEvent,
  type StatementLineView,
  type TransactionView,
} from '@transfergate/contracts';
import { MAX_EVENTS_PER_APPEND, WrongExpectedVersionError } from '@transfergate/event-store';
import { decideApprove } from '../decisions/approve-transaction.decide.js';
import { orThrow } from '../decisions/decision.js';
import { decideDismiss, dismissReasonOf } from '../decisions/dismiss-statement-line.decide.js';
import { decideMatch, type MatchRequest } from '../decisions/match-statement-line.decide.js';
import { MerchantRules } from '../commands/merchant-rules.js';
import { LEDGER_SETTINGS, MAX_CONFLICT_RETRIES, type LedgerSettings } from '../ledger.settings.js';
import type { TransactionAggregate } from '../domain/transaction.js';
import { LedgerRepository, type PendingWrite } from '../persistence/ledger-repository.js';
import { ReconciliationStore } from './reconciliation-store.js';

export type { MatchRequest } from '../decisions/match-statement-line.decide.js';

/**
 * Automatic matches of one import are decided in batches of this many: one read of their lines, one
 * of their deposits, one of their matches, and one append of all their claims, approvals and
 * decisions (about four writes each: within the event store's 128 writes of a group commit).
 */
export const AUTO_MATCH_BATCH = 24;
/** Batches in flight at once (their appends share group commits): at most 192 matches. */
export const MAX_AUTO_BATCHES_IN_FLIGHT = 8;

type DecisionEvent = DomainEvent<'StatementLineMatched'>;

/**
 * Writes at `any` version to one stream (the account's statement stream, a merchant's ledger) merged
 * into one write each, in order: an append writes each stream once. Writes at a version are kept as
 * they are (one per stream already: the batch holds each line and deposit once).
 */
export function mergeAnyVersionWrites(writes: readonly PendingWrite[]): PendingWrite[] {
  const out: PendingWrite[] = [];
  const merged = new Map<string, PendingWrite>();
  for (const write of writes) {
    if (write.expectedVersion !== 'any') {
      out.push(write);
      continue;
    }
    const open = merged.get(write.streamId);
    if (open && open.events.length + write.events.length <= MAX_EVENTS_PER_APPEND) {
      open.events = [...open.events, ...write.events];
      continue;
    }
    const copy = { ...write, events: [...write.events] };
    merged.set(write.streamId, copy);
    out.push(copy);
  }
  return out;
}

interface PendingDecision {
  lineId: string;
  event: DecisionEvent;
  resolve(): void;
  reject(error: unknown): void;
}

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
    @Inject(LEDGER_SETTINGS) private readonly settings: LedgerSettings,
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

  /**
   * Load, decide (decideMatch), claim, approve; then record the decision on the line. A received
   * amount that needs a second operator asks for the amount change instead and answers the line
   * still queued, with `amountChangeWaiting`.
   */
  private async matchNow(request: MatchRequest): Promise<StatementLineView> {
    const outcome = await this.performMatch(request);
    if ('waiting' in outcome) return outcome.waiting;
    const { line, matched } = outcome;
    await this.appendDecision(line.bankAccountId, line.lineId, matched, undefined, request.actor);
    return (await this.store.line(line.lineId))!;
  }

  /**
   * Many automatic matches (an import's strong candidates), in batches of AUTO_MATCH_BATCH, up to
   * MAX_AUTO_BATCHES_IN_FLIGHT batches at once: each batch is read in three queries and appended in
   * one (matchBatch), and the batches' appends share the event store's group commits
   * (append-groups.ts) the way concurrent deposits do. Answers each request's outcome in order; a
   * refusal is that request's alone.
   */
  async matchMany(requests: readonly MatchRequest[]): Promise<Array<PromiseSettledResult<void>>> {
    const outcomes: Array<PromiseSettledResult<void>> = new Array(requests.length);
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const start = next;
        next = Math.min(requests.length, next + AUTO_MATCH_BATCH);
        const batch = requests.slice(start, next);
        const settled = await this.matchBatch(batch);
        settled.forEach((outcome, i) => (outcomes[start + i] = outcome));
      }
    };
    const batches = Math.ceil(requests.length / AUTO_MATCH_BATCH);
    await Promise.all(Array.from({ length: Math.min(MAX_AUTO_BATCHES_IN_FLIGHT, batches) }, worker));
    return outcomes;
  }

  /**
   * A batch of automatic matches in one append: their lines, deposits and matches read in one query
   * each, each decided (decideMatch, decideApprove), and the writes of those accepted appended
   * together, atomically: the claims (no_stream, one pair per match), the approvals at their
   * transaction streams' versions with their settlements, and the decisions on the account's
   * statement stream at `any` version (the claims decide every race on a line or a deposit). A
   * refusal is its member's alone. When the append loses a race (an operator decided a line or moved
   * a deposit meanwhile), or a line or deposit comes twice in the batch, those members are decided
   * again one by one (autoMatchNow), which reads everything anew.
   */
  private async matchBatch(batch: readonly MatchRequest[]): Promise<Array<PromiseSettledResult<void>>> {
    const outcomes: Array<PromiseSettledResult<void>> = new Array(batch.length);
    const alone: number[] = [];
    try {
      const lines = await this.store.linesByIds(batch.map((r) => r.lineId));
      const txns = await this.repository.loadTransactions(batch.map((r) => r.transactionId));
      const matched = await this.store.matchedLinesOf(batch.map((r) => r.transactionId));
      const seen = new Set<string>();
      const members: Array<{ index: number; writes: PendingWrite[] }> = [];
      for (const [index, request] of batch.entries()) {
        if (seen.has(request.lineId) || seen.has(request.transactionId)) {
          alone.push(index);
          continue;
        }
        seen.add(request.lineId);
        seen.add(request.transactionId);
        try {
          members.push({ index, writes: await this.autoMatchWrites(request, lines, txns, matched) });
        } catch (error) {
          outcomes[index] = { status: 'rejected', reason: error };
        }
      }
      if (members.length > 0) {
        try {
          await this.repository.append(mergeAnyVersionWrites(members.flatMap((m) => m.writes)), batch[0]!.actor);
          for (const m of members) outcomes[m.index] = { status: 'fulfilled', value: undefined };
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError)) throw error;
          alone.push(...members.map((m) => m.index));
        }
      }
    } catch (error) {
      for (let i = 0; i < batch.length; i++) outcomes[i] ??= { status: 'rejected', reason: error };
      return outcomes;
    }
    const again = await Promise.allSettled(
      alone.map((i) =>
        this.serially(`line:${batch[i]!.lineId}`, () =>
          this.serially(`txn:${batch[i]!.transactionId}`, () => this.autoMatchNow(batch[i]!)),
        ),
      ),
    );
    again.forEach((outcome, k) => (outcomes[alone[k]!] = outcome));
    return outcomes;
  }

  /** One automatic match's writes, decided from what its batch read (see autoMatchNow for each part). */
  private async autoMatchWrites(
    request: MatchRequest,
    lines: ReadonlyMap<string, StatementLineView>,
    txns: ReadonlyMap<string, TransactionAggregate>,
    matched: ReadonlyMap<string, string>,
  ): Promise<PendingWrite[]> {
    const line = lines.get(request.lineId);
    const txn = line?.state === 'queued' ? txns.get(request.transactionId) : undefined;
    const plan = orThrow(
      decideMatch(request, { line, transaction: txn?.view, matchedLineId: matched.get(request.transactionId) }),
    );
    if (plan.changeAmountKurus !== undefined || plan.waitsForSecondOperator) {
      throw new Error('an automatic match is at the requested amount');
    }
    const approval = plan.approve
      ? orThrow(
          decideApprove(
            {
              transactionId: request.transactionId,
              actor: request.actor,
              ...(request.allowExpired ? { allowExpired: true } : {}),
            },
            txn!,
            { merchant: await this.rules.of(txn!.view.merchantId), reservation: undefined },
          ),
        )
      : [];
    return [
      ...plan.claim,
      ...approval,
      { streamId: STREAMS.bankStatement(line!.bankAccountId), expectedVersion: 'any', events: [plan.matched] },
    ];
  }

  /**
   * An automatic match in one append: the claims, the approval (decideApprove, with its settlement on
   * the merchant's ledger) and the decision on the line, atomically. The claims (no_stream) decide
   * every race on the line and the deposit as before, and the transaction stream's version decides
   * a race with an operator's approval, so the decision goes to the account's statement stream at
   * `any` version: matches of one import share the event store's group commits without conflicting
   * on that stream, and each waits for one commit and one projection instead of three. Whatever
   * this append loses (a line or deposit decided meanwhile, a deposit moved meanwhile), the match is
   * decided again the long way (performMatch, recordAutoMatch), which reads everything anew.
   */
  private async autoMatchNow(request: MatchRequest): Promise<void> {
    const line = await this.store.line(request.lineId);
    const txn = line?.state === 'queued' ? await this.repository.loadTransaction(request.transactionId) : undefined;
    const matchedLineId = txn ? await this.store.matchedLineOf(request.transactionId) : undefined;
    const plan = orThrow(decideMatch(request, { line, transaction: txn?.view, matchedLineId }));
    if (plan.changeAmountKurus !== undefined || plan.waitsForSecondOperator) {
      throw new Error('an automatic match is at the requested amount');
    }
    const approval = plan.approve
      ? orThrow(
          decideApprove(
            {
              transactionId: request.transactionId,
              actor: request.actor,
              ...(request.allowExpired ? { allowExpired: true } : {}),
            },
            txn!,
            { merchant: await this.rules.of(txn!.view.merchantId), reservation: undefined },
          ),
        )
      : [];
    const decision: PendingWrite = {
      streamId: STREAMS.bankStatement(line!.bankAccountId),
      expectedVersion: 'any',
      events: [plan.matched],
    };
    try {
      await this.repository.append([...plan.claim, ...approval, decision], request.actor);
      return;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
    // Lost a race: decided again from what the streams and the read models hold now.
    const outcome = await this.performMatch(request);
    if ('waiting' in outcome) throw new Error('an automatic match asked for an amount change');
    await this.recordAutoMatch(outcome.line.bankAccountId, outcome.line.lineId, outcome.matched, request.actor);
  }

  /** Decisions of automatic matches waiting for their account's next append, per account and actor. */
  private readonly autoDecisions = new Map<string, PendingDecision[]>();

  /**
   * Appends an automatic match's decision with the others waiting for the same account (and
   * actor): the first waits for nobody, the rest gather while an append is being written and
   * leave together in the next one (at most MAX_EVENTS_PER_APPEND), as the event store's group
   * commit does. The line's queue is held until its decision is recorded, so an operator's match
   * of the same line in this process finds it decided.
   */
  private recordAutoMatch(bankAccountId: string, lineId: string, event: DecisionEvent, actor: ActorRef): Promise<void> {
    const key = `${bankAccountId}\n${JSON.stringify(actor)}`;
    return new Promise<void>((resolve, reject) => {
      const waiting = this.autoDecisions.get(key);
      if (waiting) {
        waiting.push({ lineId, event, resolve, reject });
        return;
      }
      const queue: PendingDecision[] = [{ lineId, event, resolve, reject }];
      this.autoDecisions.set(key, queue);
      void this.flushAutoDecisions(key, bankAccountId, queue, actor);
    });
  }

  private async flushAutoDecisions(
    key: string,
    bankAccountId: string,
    queue: PendingDecision[],
    actor: ActorRef,
  ): Promise<void> {
    while (queue.length > 0) {
      const group = queue.splice(0, MAX_EVENTS_PER_APPEND);
      await this.appendDecisionGroup(bankAccountId, group, actor);
    }
    // Synchronously after the queue was found empty: a decision arriving next starts a new flush.
    this.autoDecisions.delete(key);
  }

  /**
   * One append of several decisions at the account stream's version, after the lines' states are
   * read again: a line decided meanwhile (another process, an operator) is that member's
   * `line_decided`; a lost race on the stream reads again and retries. Settles every member, never throws.
   */
  private async appendDecisionGroup(bankAccountId: string, group: PendingDecision[], actor: ActorRef): Promise<void> {
    const stream = STREAMS.bankStatement(bankAccountId);
    let members = group;
    try {
      for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
        const head = await this.store.head(stream);
        const queued = await this.store.queuedLineIds(members.map((m) => m.lineId));
        for (const m of members) {
          if (!queued.has(m.lineId)) {
            m.reject(new DomainError('line_decided', 'the statement line was decided meanwhile'));
          }
        }
        members = members.filter((m) => queued.has(m.lineId));
        if (members.length === 0) return;
        try {
          await this.repository.append(
            [{ streamId: stream, expectedVersion: head.version, events: members.map((m) => m.event) }],
            actor,
          );
        } catch (error) {
          if (error instanceof WrongExpectedVersionError) continue;
          throw error;
        }
        for (const m of members) m.resolve();
        return;
      }
      const conflict = new DomainError('concurrency_conflict', 'the account is changing too fast; retry');
      for (const m of members) m.reject(conflict);
    } catch (error) {
      for (const m of members) m.reject(error);
    }
  }

  /**
   * Everything of a match but its decision's append: load the line, the deposit and its match,
   * decide (decideMatch), claim, and approve (or change the amount and approve). Answers the line and
   * the decision event to append.
   */
  private async performMatch(
    request: MatchRequest,
  ): Promise<{ line: StatementLineView; matched: DecisionEvent } | { waiting: StatementLineView }> {
    const line = await this.store.line(request.lineId);
    const txn = line?.state === 'queued' ? await this.repository.loadTransaction(request.transactionId) : undefined;
    const matchedLineId = txn ? await this.store.matchedLineOf(request.transactionId) : undefined;
    const merchant = txn && request.amount === 'received' ? await this.rules.of(txn.view.merchantId) : undefined;
    const fourEyes = this.settings.fourEyes;
    const plan = orThrow(
      decideMatch(request, {
        line,
        transaction: txn?.view,
        matchedLineId,
        merchant,
        ...(fourEyes ? { fourEyes } : {}),
      }),
    );
    if (plan.waitsForSecondOperator) {
      const view: TransactionView = await this.commands.execute(
        new ChangeAmountCommand({
          transactionId: request.transactionId,
          amountKurus: plan.changeAmountKurus!,
          actor: request.actor,
          lineId: request.lineId,
        }),
      );
      const pending = view.pendingAmountChange;
      if (!pending)
        throw new Error(`TG-${view.number}: the amount change that needs a second operator was made at once`);
      return {
        waiting: {
          ...line!,
          amountChangeWaiting: {
            transactionId: view.transactionId,
            requestId: pending.requestId,
            toKurus: pending.toKurus,
          },
        },
      };
    }
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
    let matched = plan.matched;
    if (plan.approve) {
      try {
        await this.commands.execute(
          new ApproveTransactionCommand({
            transactionId: request.transactionId,
            actor: request.actor,
            ...(request.allowExpired ? { allowExpired: true } : {}),
          }),
        );
      } catch (error) {
        // Approved by an operator between the read above and this approval: the line, claimed for
        // this deposit, pays it all the same, so it is linked (the ledger refused the second approval).
        if (!isDomainError(error) || error.errorCode !== 'transaction_final' || plan.changeAmountKurus !== undefined) {
          throw error;
        }
        const now = await this.repository.loadTransaction(request.transactionId);
        if (now?.view.state !== 'approved') throw error;
        matched = domainEvent('StatementLineMatched', { ...plan.matched.data, decision: 'link' });
      }
    }
    return { line: line!, matched };
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
