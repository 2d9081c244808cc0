import { createHash, randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
  ImportStatementCommand,
  STREAMS,
  domainEvent,
  isDomainError,
  type DomainEvent,
  type StatementImportReport,
} from '@transfergate/contracts';
import { MAX_EVENTS_PER_APPEND, WrongExpectedVersionError } from '@transfergate/event-store';
import { MAX_CONFLICT_RETRIES } from '../ledger.settings.js';
import { LedgerRepository, type PendingWrite } from '../persistence/ledger-repository.js';
import { LineDecisions, type MatchRequest } from './line-decisions.service.js';
import { identifyLines, type IdentifiedLine } from './line-identity.js';
import { Matcher, type Assessment } from './matching/matcher.js';
import { WithdrawalMatcher } from './matching/withdrawal-matcher.js';
import {
  MAX_LINES_PER_STATEMENT,
  StatementRefusedError,
  parseStatement,
  type ParsedStatement,
} from './parsers/index.js';
import { ReconciliationStore, type MatchDeposit } from './reconciliation-store.js';

/**
 * Imports one statement file of one receiving account: parse it whole (or refuse it whole), keep the
 * lines not imported before (by identity), assess each new credit line against the account's
 * deposits, and append the import, one event per line and its assessment in ONE transaction at the
 * account stream's version (several appends of at most MAX_EVENTS_PER_APPEND events, all or none).
 * Then the strong matches are approved (infrastructure setting on) or linked (deposit approved by
 * hand already) through LineDecisions, the operator's own path; the rest waits in the queue.
 */
@CommandHandler(ImportStatementCommand)
export class ImportStatementHandler implements ICommandHandler<ImportStatementCommand, StatementImportReport> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly store: ReconciliationStore,
    private readonly decisions: LineDecisions,
  ) {}

  async execute({ input }: ImportStatementCommand): Promise<StatementImportReport> {
    const { state: account } = await this.repository.loadConfig(
      STREAMS.bankAccount(input.bankAccountId),
      'BankAccountConfigured',
    );
    if (!account) throw new DomainError('not_found', 'no such bank account');
    const content = Buffer.from(input.contentBase64, 'base64');
    const parsed = await parseOrRefuse(content, input);
    const refuse = (message: string) => {
      throw new DomainError('statement_refused', `statement refused: ${message}`, {
        problems: [{ at: 'file', message }],
      });
    };
    if (parsed.accountIban && parsed.accountIban !== account.iban.replace(/\s+/g, '').toUpperCase()) {
      refuse(`the statement is for ${parsed.accountIban}, not for this account (${account.iban})`);
    }
    if (parsed.lines.length > MAX_LINES_PER_STATEMENT) refuse(`more than ${MAX_LINES_PER_STATEMENT} lines`);
    const identified = identifyLines(input.bankAccountId, parsed.lines);
    if (identified.conflictingReferences.length > 0) {
      refuse(`bank reference ${identified.conflictingReferences.slice(0, 3).join(', ')} names two different lines`);
    }
    const stream = STREAMS.bankStatement(input.bankAccountId);
    const fileSha256 = createHash('sha256').update(content).digest('hex');

    for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
      const head = await this.store.head(stream);
      const existing = await this.store.existingLineIds(identified.lines.map((l) => l.lineId));
      const fresh = identified.lines.filter((l) => !existing.has(l.lineId));
      const days = parsed.lines.map((l) => l.bookedOn).sort();
      const deposits =
        fresh.some((l) => l.line.direction === 'credit') && days[0]
          ? await this.store.depositsForMatching(input.bankAccountId, days[0])
          : [];
      const withdrawals =
        fresh.some((l) => l.line.direction === 'debit') && days[0]
          ? await this.store.withdrawalsForMatching(days[0])
          : [];
      const matcher = new Matcher(deposits);
      const payouts = new WithdrawalMatcher(withdrawals);
      const assessments = fresh.map((l) =>
        l.line.direction === 'credit'
          ? matcher.assess({ lineId: l.lineId, ...l.line })
          : payouts.assess({ lineId: l.lineId, ...l.line }),
      );
      const importId = randomUUID();
      const events: DomainEvent[] = [
        domainEvent('StatementImported', {
          importId,
          bankAccountId: input.bankAccountId,
          format: input.format,
          fileName: input.fileName,
          fileSha256,
          linesInFile: parsed.lines.length,
          linesNew: fresh.length,
          linesAlreadyImported: parsed.lines.length - fresh.length,
          skipped: parsed.skipped.slice(0, 100),
          ...(parsed.openingBalanceKurus !== undefined
            ? { openingBalanceKurus: parsed.openingBalanceKurus.toString() }
            : {}),
          ...(parsed.closingBalanceKurus !== undefined
            ? { closingBalanceKurus: parsed.closingBalanceKurus.toString() }
            : {}),
          ...(days[0] ? { firstDay: days[0], lastDay: days[days.length - 1]! } : {}),
          by: { source: input.actor.source, ...(input.actor.operatorId ? { operatorId: input.actor.operatorId } : {}) },
        }),
      ];
      fresh.forEach((l, i) =>
        events.push(lineEvent(l, importId, input.bankAccountId), assessedEvent(assessments[i]!, input.bankAccountId)),
      );
      try {
        await this.repository.append(chunked(stream, head.version, events), input.actor);
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) continue;
        throw error;
      }
      return this.finish(input, parsed, importId, fresh, assessments, deposits);
    }
    throw new DomainError('concurrency_conflict', 'the account statement is changing too fast; retry');
  }

  private async finish(
    input: ImportStatementCommand['input'],
    parsed: ParsedStatement,
    importId: string,
    fresh: IdentifiedLine[],
    assessments: Assessment[],
    deposits: MatchDeposit[],
  ): Promise<StatementImportReport> {
    const byId = new Map(deposits.map((d) => [d.transactionId, d]));
    const autoApprove = await this.store.autoApproveInfrastructures();
    let strongWaiting = 0;
    // Decided together (LineDecisions.matchMany): the approvals share group commits.
    const automatic: Array<{ request: MatchRequest; number: number; debit: boolean }> = [];
    for (const a of assessments) {
      if (!a.strong) continue;
      const deposit = byId.get(a.strong.transactionId);
      // No deposit: a debit line paying out an approved withdrawal, a link where no money moves.
      if (deposit && deposit.state !== 'approved' && !autoApprove.has(deposit.infrastructureId)) {
        strongWaiting += 1;
        continue;
      }
      automatic.push({
        request: this.automaticMatch(a.lineId, a.strong.transactionId, a.strong, input.actor.requestId),
        number: deposit?.number ?? a.strong.number,
        debit: !deposit,
      });
    }
    const outcomes = await this.decisions.matchMany(automatic.map((m) => m.request));
    let autoMatched = 0;
    let debitsLinked = 0;
    const autoFailures: StatementImportReport['autoFailures'] = [];
    outcomes.forEach((outcome, i) => {
      const { request, number, debit } = automatic[i]!;
      if (outcome.status === 'fulfilled') {
        if (debit) debitsLinked += 1;
        else autoMatched += 1;
        return;
      }
      if (!isDomainError(outcome.reason)) throw outcome.reason;
      autoFailures.push({ lineId: request.lineId, number, errorCode: outcome.reason.errorCode });
    });
    const credits = fresh.filter((l) => l.line.direction === 'credit').length;
    return {
      importId,
      bankAccountId: input.bankAccountId,
      format: input.format,
      fileName: input.fileName,
      linesInFile: parsed.lines.length,
      linesNew: fresh.length,
      linesAlreadyImported: parsed.lines.length - fresh.length,
      credits,
      debits: fresh.length - credits,
      skipped: parsed.skipped,
      warnings: parsed.warnings,
      autoMatched,
      strongWaiting,
      queued: credits - autoMatched,
      debitsLinked,
      ...(parsed.openingBalanceKurus !== undefined
        ? { openingBalanceKurus: parsed.openingBalanceKurus.toString() }
        : {}),
      ...(parsed.closingBalanceKurus !== undefined
        ? { closingBalanceKurus: parsed.closingBalanceKurus.toString() }
        : {}),
      autoFailures,
    };
  }

  /**
   * A strong candidate decided without a person, through the operators' own match. Its events carry
   * the request id of the import that decided it.
   */
  private automaticMatch(
    lineId: string,
    transactionId: string,
    strong: { score: number; reasons: string[] },
    requestId: string | undefined,
  ): MatchRequest {
    return {
      lineId,
      transactionId,
      amount: 'requested',
      allowExpired: false,
      actor: { source: 'reconciliation', ...(requestId ? { requestId } : {}) },
      mode: 'auto',
      score: strong.score,
      reasons: strong.reasons,
    };
  }
}

async function parseOrRefuse(content: Buffer, input: ImportStatementCommand['input']): Promise<ParsedStatement> {
  try {
    return await parseStatement(content, {
      format: input.format,
      ...(input.preset ? { preset: input.preset } : {}),
      ...(input.mapping ? { mapping: input.mapping } : {}),
    });
  } catch (error) {
    if (error instanceof StatementRefusedError) {
      throw new DomainError('statement_refused', error.message, { problems: error.problems });
    }
    throw error;
  }
}

function lineEvent(l: IdentifiedLine, importId: string, bankAccountId: string): DomainEvent {
  const line = l.line;
  return domainEvent('StatementLineImported', {
    lineId: l.lineId,
    importId,
    bankAccountId,
    identity: l.identity,
    bookedOn: line.bookedOn,
    direction: line.direction,
    amountKurus: line.amountKurus.toString(),
    description: line.description,
    ...(line.bankReference ? { bankReference: line.bankReference } : {}),
    ...(line.bookedAt ? { bookedAt: line.bookedAt } : {}),
    ...(line.valueOn ? { valueOn: line.valueOn } : {}),
    ...(line.counterpartyName ? { counterpartyName: line.counterpartyName } : {}),
    ...(line.counterpartyIban ? { counterpartyIban: line.counterpartyIban } : {}),
  });
}

function assessedEvent(a: Assessment, bankAccountId: string): DomainEvent {
  return domainEvent('StatementLineAssessed', {
    lineId: a.lineId,
    bankAccountId,
    candidates: a.candidates,
    differences: a.differences,
  });
}

/** The events as consecutive appends to one stream, each at the version the previous one leaves. */
function chunked(streamId: string, version: number, events: DomainEvent[]): PendingWrite[] {
  const writes: PendingWrite[] = [];
  for (let i = 0; i < events.length; i += MAX_EVENTS_PER_APPEND) {
    const at = version + i;
    writes.push({
      streamId,
      expectedVersion: at === 0 ? 'no_stream' : at,
      events: events.slice(i, i + MAX_EVENTS_PER_APPEND),
    });
  }
  return writes;
}
