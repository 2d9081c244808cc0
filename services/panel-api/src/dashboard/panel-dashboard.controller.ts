import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  PanelDashboardQuery,
  PanelDashboardRequestSchema,
  kurusToNumber,
  parseBody,
  type PanelDashboard,
  type PanelDashboardApprovals,
} from '@transfergate/contracts';
import { RequirePermission } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { panelPaths } from '../records/panel-paths.js';

const NONE: PanelDashboardApprovals = { approvedCount: 0, approvedVolume: 0, medianApprovalSeconds: null };

/**
 * GET /panel/dashboard?days=N: approvals per Turkish business day and the open queues, for the
 * operator UI's dashboard (the public /api/config/dashboard has only today, by creation day).
 */
@Controller()
@UseGuards(PanelAuthGuard)
export class PanelDashboardController {
  constructor(private readonly queries: QueryBus) {}

  @Get(panelPaths('dashboard'))
  @RequirePermission('transactions.view')
  async dashboard(@Query() query: unknown): Promise<PanelDashboard> {
    const { days } = parseBody(PanelDashboardRequestSchema, query ?? {});
    const data = await this.queries.execute(new PanelDashboardQuery(days));
    const of = (day: string, type: 'deposit' | 'withdrawal'): PanelDashboardApprovals => {
      const row = data.approvals.find((r) => r.day === day && r.type === type);
      return row
        ? {
            approvedCount: row.approvedCount,
            approvedVolume: kurusToNumber(BigInt(row.approvedVolumeKurus)),
            medianApprovalSeconds: row.medianApprovalSeconds,
          }
        : NONE;
    };
    return {
      day: data.days[data.days.length - 1]!,
      timeZone: 'UTC+03:00',
      pending: data.pending,
      days: data.days.map((day) => ({ day, deposit: of(day, 'deposit'), withdrawal: of(day, 'withdrawal') })),
    };
  }
}
