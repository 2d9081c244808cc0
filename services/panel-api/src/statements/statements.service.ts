import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  GetMerchantStatementQuery,
  StatementRequestSchema,
  parseBody,
  statementCsvFilename,
  statementRange,
  statementToCsv,
  type MerchantStatement,
} from '@transfergate/contracts';
import { recordIdParam } from '../records/record-commands.js';

export type StatementAnswer =
  { format: 'json'; statement: MerchantStatement } | { format: 'csv'; body: string; filename: string };

/** Merchant statements: checks the request, asks the ledger (which folds its event stream), renders. */
@Injectable()
export class StatementsService {
  constructor(private readonly queries: QueryBus) {}

  async statement(merchantId: string, query: unknown, forceCsv: boolean): Promise<StatementAnswer> {
    const id = recordIdParam(merchantId, 'merchant');
    const input = parseBody(StatementRequestSchema, query ?? {});
    const statement = await this.queries.execute(
      new GetMerchantStatementQuery(id, statementRange(input.from, input.to)),
    );
    if (forceCsv || input.format === 'csv') {
      return { format: 'csv', body: statementToCsv(statement), filename: statementCsvFilename(statement) };
    }
    return { format: 'json', statement };
  }
}
