import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { GetMerchantStatementQuery, type MerchantStatement } from '@transfergate/contracts';
import { EVENT_STORE, type EventStore } from '@transfergate/event-store';
import { readMerchantStatement } from './statement.reader.js';

/** The panel's statement, folded from the event store (see readMerchantStatement). */
@QueryHandler(GetMerchantStatementQuery)
export class GetMerchantStatementHandler implements IQueryHandler<GetMerchantStatementQuery, MerchantStatement> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  execute({ merchantId, range }: GetMerchantStatementQuery): Promise<MerchantStatement> {
    return readMerchantStatement(this.store, merchantId, range);
  }
}
