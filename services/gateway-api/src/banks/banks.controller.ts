import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ListBanksQuery, type BanksResponse } from '@transfergate/contracts';

/** GET /banks: banks that currently have an active receiving account (public: no secret in it). */
@Controller()
export class BanksController {
  constructor(private readonly queries: QueryBus) {}

  @Get(['banks', 'api/banks'])
  async banks(): Promise<BanksResponse> {
    return { success: true, data: await this.queries.execute(new ListBanksQuery()) };
  }
}
