import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ConfigureReconciliationCommand,
  DismissStatementLineCommand,
  DomainError,
  GetReconciliationSettingsQuery,
  GetReconciliationSummaryQuery,
  ListStatementLinesForReportQuery,
  ListApprovedWithdrawalsQuery,
  PaymentFileLayoutSchema,
  PaymentFileQuerySchema,
  paymentFileCsv,
  ReconciliationRangeQuerySchema,
  reconciliationToCsv,
  type ReconciliationSummary,
  GetStatementLineQuery,
  ImportStatementCommand,
  ListStatementLinesQuery,
  MatchStatementLineCommand,
  ReconciliationSettingsRequestSchema,
  StatementLineDismissRequestSchema,
  StatementLineListQuerySchema,
  StatementLineMatchRequestSchema,
  StatementUploadQuerySchema,
  parseBody,
  type ReconciliationQueuePage,
  type StatementImportReport,
  type StatementLineView,
} from '@transfergate/contracts';
import { z } from 'zod';
import { actorOf, type OperatorContext } from '../auth/decorators.js';
import { recordIdParam } from '../records/record-commands.js';

const LineIdSchema = z.uuid();

/** Reconciliation for operators: checks input and permissions, one ledger command or query each. */
@Injectable()
export class ReconciliationService {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  async importStatement(
    bankAccountId: string,
    query: unknown,
    body: unknown,
    operator: OperatorContext,
  ): Promise<StatementImportReport> {
    const id = recordIdParam(bankAccountId, 'bank account');
    const input = parseBody(StatementUploadQuerySchema, query ?? {});
    if (!Buffer.isBuffer(body) || body.length === 0) {
      throw new DomainError(
        'validation_failed',
        'send the statement file as the request body with content-type application/octet-stream',
      );
    }
    return this.commands.execute(
      new ImportStatementCommand({
        bankAccountId: id,
        format: input.format,
        fileName: input.fileName,
        contentBase64: body.toString('base64'),
        ...(input.preset ? { preset: input.preset } : {}),
        ...(input.mapping ? { mapping: input.mapping } : {}),
        actor: actorOf(operator),
      }),
    );
  }

  list(query: unknown): Promise<ReconciliationQueuePage> {
    return this.queries.execute(new ListStatementLinesQuery(parseBody(StatementLineListQuerySchema, query ?? {})));
  }

  async line(lineId: string): Promise<StatementLineView> {
    const found = await this.queries.execute(new GetStatementLineQuery(this.lineId(lineId)));
    if (!found) throw new DomainError('not_found', 'no such statement line');
    return found;
  }

  /** A match approves a deposit: it also needs the approve permission (and approve_expired for a late one). */
  match(lineId: string, body: unknown, operator: OperatorContext): Promise<StatementLineView> {
    const input = parseBody(StatementLineMatchRequestSchema, body);
    if (!operator.permissions.includes('transactions.approve')) {
      throw new DomainError('permission_denied', 'matching a line approves a deposit: transactions.approve is needed');
    }
    return this.commands.execute(
      new MatchStatementLineCommand({
        lineId: this.lineId(lineId),
        transactionId: input.transactionId,
        amount: input.amount,
        allowExpired: operator.permissions.includes('transactions.approve_expired'),
        actor: actorOf(operator),
      }),
    );
  }

  dismiss(lineId: string, body: unknown, operator: OperatorContext): Promise<StatementLineView> {
    const input = parseBody(StatementLineDismissRequestSchema, body);
    return this.commands.execute(
      new DismissStatementLineCommand({ lineId: this.lineId(lineId), reason: input.reason, actor: actorOf(operator) }),
    );
  }

  settings() {
    return this.queries.execute(new GetReconciliationSettingsQuery());
  }

  configure(body: unknown, operator: OperatorContext) {
    const input = parseBody(ReconciliationSettingsRequestSchema, body);
    return this.commands.execute(new ConfigureReconciliationCommand({ ...input, actor: actorOf(operator) }));
  }

  summary(bankAccountId: string, query: unknown): Promise<ReconciliationSummary> {
    const range = parseBody(ReconciliationRangeQuerySchema, query ?? {});
    return this.queries.execute(
      new GetReconciliationSummaryQuery({ bankAccountId: recordIdParam(bankAccountId, 'bank account'), ...range }),
    );
  }

  async reportCsv(bankAccountId: string, query: unknown): Promise<{ body: string; filename: string }> {
    const id = recordIdParam(bankAccountId, 'bank account');
    const range = parseBody(ReconciliationRangeQuerySchema, query ?? {});
    const lines = await this.queries.execute(new ListStatementLinesForReportQuery({ bankAccountId: id, ...range }));
    return { body: reconciliationToCsv(lines), filename: `reconciliation-${id}-${range.from}-${range.to}.csv` };
  }

  async paymentFile(query: unknown): Promise<{ body: string; filename: string }> {
    const input = parseBody(PaymentFileQuerySchema, query ?? {});
    const rows = await this.queries.execute(
      new ListApprovedWithdrawalsQuery({
        from: input.from,
        to: input.to,
        ...(input.bankCode ? { bankCode: input.bankCode } : {}),
      }),
    );
    const layout = input.layout ?? PaymentFileLayoutSchema.parse({});
    const bank = input.bankCode ? `-${input.bankCode}` : '';
    return { body: paymentFileCsv(rows, layout), filename: `payments${bank}-${input.from}-${input.to}.csv` };
  }

  private lineId(id: string): string {
    if (!LineIdSchema.safeParse(id).success) throw new DomainError('not_found', 'no such statement line');
    return id;
  }
}
