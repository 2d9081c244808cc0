import { Controller, Get, HttpException, Inject } from '@nestjs/common';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';

/**
 * GET /eqopay/health: the provider module's health ("eqopay" is the contract's brand-derived alias).
 * Unlike GET /, it checks what a payment needs: the database answers.
 */
@Controller()
export class ModuleHealthController {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  @Get(['eqopay/health', 'api/eqopay/health'])
  async health() {
    const startedMs = Date.now();
    try {
      await this.db.query('select 1');
    } catch {
      throw new HttpException({ status: 'unavailable', module: 'eqopay', database: 'unreachable' }, 503);
    }
    return { status: 'ok', module: 'eqopay', database: 'ok', databaseLatencyMs: Date.now() - startedMs };
  }
}
