import { Query } from '@nestjs/cqrs';
import { z } from 'zod';

/**
 * GET /panel/dashboard: the operator dashboard's approvals per day and the open queues. Days are
 * Turkish business days (UTC+3, no DST), like the transaction list's date filters and the
 * receiving accounts' daily limits; a transaction counts on the day it was approved.
 */
export const PANEL_DASHBOARD_MAX_DAYS = 31;

export const PanelDashboardRequestSchema = z.object({
  days: z.coerce.number().int().min(1).max(PANEL_DASHBOARD_MAX_DAYS).default(7),
});

/** One type's approvals on one day (amounts in TRY on the wire, like every panel amount). */
export const PanelDashboardApprovalsSchema = z.object({
  approvedCount: z.number().int(),
  /** TRY. */
  approvedVolume: z.number(),
  /** Median seconds from creation to approval; null without approvals. */
  medianApprovalSeconds: z.number().nullable(),
});
export type PanelDashboardApprovals = z.infer<typeof PanelDashboardApprovalsSchema>;

export const PanelDashboardSchema = z.object({
  /** Today, the last entry of `days`. */
  day: z.string(),
  timeZone: z.literal('UTC+03:00'),
  /** Open now (deposits awaiting payment or reported, withdrawals pending or processing), any day. */
  pending: z.object({ deposit: z.number().int(), withdrawal: z.number().int() }),
  /** Oldest first, one entry per day (days without approvals included). */
  days: z.array(
    z.object({ day: z.string(), deposit: PanelDashboardApprovalsSchema, withdrawal: PanelDashboardApprovalsSchema }),
  ),
});
export type PanelDashboard = z.infer<typeof PanelDashboardSchema>;

/** What the ledger answers: kuruş as decimal strings, converted to TRY by the panel API. */
export interface PanelDashboardApprovalsRow {
  day: string;
  type: 'deposit' | 'withdrawal';
  approvedCount: number;
  approvedVolumeKurus: string;
  medianApprovalSeconds: number | null;
}

export interface PanelDashboardData {
  /** Oldest first; only days and types with approvals. */
  approvals: PanelDashboardApprovalsRow[];
  /** The Turkish business days covered, oldest first (today last). */
  days: string[];
  pending: { deposit: number; withdrawal: number };
}

export class PanelDashboardQuery extends Query<PanelDashboardData> {
  constructor(readonly days: number) {
    super();
  }
}
