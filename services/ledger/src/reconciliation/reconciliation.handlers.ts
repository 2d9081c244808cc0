import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  ConfigureReconciliationCommand,
  DismissStatementLineCommand,
  DomainError,
  GetReconciliationSettingsQuery,
  GetReconciliationSummaryQuery,
  ListApprovedWithdrawalsQuery,
  MAX_PAYMENT_FILE_ROWS,
  type PayableWithdrawal,
  ListStatementLinesForReportQuery,
  MAX_REPORT_LINES,
  type ReconciliationSummary,
  GetStatementLineQuery,
  ListStatementLinesQuery,
  MatchStatementLineCommand,
  STREAMS,
  domainEvent,
  type ReconciliationQueuePage,
  type ReconciliationSettingsView,
  type StatementLineView,
} from '@transfergate/contracts';
import { Inject } from '@nestjs/common';
import { SQL_DATABASE, WrongExpectedVersionError, type SqlDatabase } from '@transfergate/event-store';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { LineDecisions } from './line-decisions.service.js';
import { withCandidateTransactions } from './candidate-transactions.js';
import { ReconciliationStore, summaryOf } from './reconciliation-store.js';

@CommandHandler(MatchStatementLineCommand)
export class MatchStatementLineHandler implements ICommandHandler<MatchStatementLineCommand, StatementLineView> {
  constructor(private readonly decisions: LineDecisions) {}

  execute({ input }: MatchStatementLineCommand): Promise<StatementLineView> {
    return this.decisions.match({ ...input, mode: 'operator' });
  }
}

@CommandHandler(DismissStatementLineCommand)
export class DismissStatementLineHandler implements ICommandHandler<DismissStatementLineCommand, StatementLineView> {
  constructor(private readonly decisions: LineDecisions) {}

  execute({ input }: DismissStatementLineCommand): Promise<StatementLineView> {
    return this.decisions.dismiss(input.lineId, input.reason, input.actor);
  }
}

/** Automatic approval per infrastructure (off until configured): an event only when it changes. */
@CommandHandler(ConfigureReconciliationCommand)
export class ConfigureReconciliationHandler implements ICommandHandler<ConfigureReconciliationCommand> {
  constructor(private readonly repository: LedgerRepository) {}

  async execute({ input }: ConfigureReconciliationCommand) {
    const { state: infrastructure } = await this.repository.loadConfig(
      STREAMS.infrastructure(input.infrastructureId),
      'InfrastructureConfigured',
    );
    if (!infrastructure) throw new DomainError('not_found', 'no such infrastructure');
    const stream = STREAMS.reconciliationSettings(input.infrastructureId);
    const current = (await this.repository.readAllData(stream)) as Array<{ autoApprove: boolean }>;
    const before = current[current.length - 1]?.autoApprove ?? false;
    if (before === input.autoApprove && current.length > 0) {
      return { infrastructureId: input.infrastructureId, autoApprove: before, changed: false };
    }
    try {
      await this.repository.append(
        [
          {
            streamId: stream,
            expectedVersion: current.length === 0 ? 'no_stream' : current.length,
            events: [
              domainEvent('ReconciliationSettingsConfigured', {
                infrastructureId: input.infrastructureId,
                autoApprove: input.autoApprove,
                by: {
                  source: input.actor.source,
                  ...(input.actor.operatorId ? { operatorId: input.actor.operatorId } : {}),
                },
              }),
            ],
          },
        ],
        input.actor,
      );
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new DomainError('concurrency_conflict', 'the setting changed meanwhile; retry');
      }
      throw error;
    }
    return { infrastructureId: input.infrastructureId, autoApprove: input.autoApprove, changed: true };
  }
}

@QueryHandler(ListStatementLinesQuery)
export class ListStatementLinesHandler implements IQueryHandler<ListStatementLinesQuery, ReconciliationQueuePage> {
  constructor(
    private readonly store: ReconciliationStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async execute({ filter }: ListStatementLinesQuery): Promise<ReconciliationQueuePage> {
    const page = await this.store.lines(filter);
    return { ...page, items: await withCandidateTransactions(this.db, page.items) };
  }
}

@QueryHandler(GetStatementLineQuery)
export class GetStatementLineHandler implements IQueryHandler<GetStatementLineQuery, StatementLineView | null> {
  constructor(
    private readonly store: ReconciliationStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async execute({ lineId }: GetStatementLineQuery): Promise<StatementLineView | null> {
    const line = await this.store.line(lineId);
    return line ? ((await withCandidateTransactions(this.db, [line]))[0] ?? null) : null;
  }
}

@QueryHandler(GetReconciliationSettingsQuery)
export class GetReconciliationSettingsHandler implements IQueryHandler<GetReconciliationSettingsQuery> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute(): Promise<ReconciliationSettingsView[]> {
    const { rows } = await this.db.query<{ infrastructure_id: string; auto_approve: boolean | null }>(
      `select i.infrastructure_id, s.auto_approve from rm_infrastructures i
       left join rm_reconciliation_settings s on s.infrastructure_id = i.infrastructure_id order by i.infrastructure_id`,
    );
    return rows.map((r) => ({ infrastructureId: r.infrastructure_id, autoApprove: r.auto_approve ?? false }));
  }
}

@QueryHandler(GetReconciliationSummaryQuery)
export class GetReconciliationSummaryHandler implements IQueryHandler<GetReconciliationSummaryQuery> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  execute({ input }: GetReconciliationSummaryQuery): Promise<ReconciliationSummary> {
    return summaryOf(this.db, input.bankAccountId, input.from, input.to);
  }
}

@QueryHandler(ListStatementLinesForReportQuery)
export class ListStatementLinesForReportHandler implements IQueryHandler<ListStatementLinesForReportQuery> {
  constructor(private readonly store: ReconciliationStore) {}

  async execute({ input }: ListStatementLinesForReportQuery): Promise<StatementLineView[]> {
    const page = await this.store.lines({ ...input, limit: MAX_REPORT_LINES + 1, offset: 0 });
    if (page.items.length > MAX_REPORT_LINES) {
      throw new DomainError('validation_failed', `more than ${MAX_REPORT_LINES} lines: ask for a shorter range`);
    }
    // Oldest first in a report.
    return page.items.reverse();
  }
}

/** Approved withdrawals of Turkish days [from, to] (by approval time), optionally of one beneficiary bank. */
@QueryHandler(ListApprovedWithdrawalsQuery)
export class ListApprovedWithdrawalsHandler implements IQueryHandler<ListApprovedWithdrawalsQuery> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute({ input }: ListApprovedWithdrawalsQuery): Promise<PayableWithdrawal[]> {
    const { rows } = await this.db.query<{
      number: string;
      external_id: string;
      iban: string;
      name: string;
      amount: string;
      approved_at: string;
    }>(
      `select number::text, external_id, iban, customer->>'fullName' as name, amount_kurus::text as amount,
              to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as approved_at
       from rm_transactions
       where type = 'withdrawal' and state = 'approved' and iban is not null
         and ((updated_at at time zone 'UTC') + interval '3 hours')::date between $1::date and $2::date
         and ($3::text is null or substring(iban from 5 for 5) = $3)
       order by updated_at, number limit ${MAX_PAYMENT_FILE_ROWS + 1}`,
      [input.from, input.to, input.bankCode ?? null],
    );
    if (rows.length > MAX_PAYMENT_FILE_ROWS) {
      throw new DomainError(
        'validation_failed',
        `more than ${MAX_PAYMENT_FILE_ROWS} withdrawals: ask for a shorter range`,
      );
    }
    return rows.map((r) => ({
      number: Number(r.number),
      externalId: r.external_id,
      iban: r.iban,
      name: r.name,
      amountKurus: r.amount,
      approvedAt: r.approved_at,
    }));
  }
}
