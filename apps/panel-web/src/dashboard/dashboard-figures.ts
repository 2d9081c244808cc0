import { panelFetch } from '../api/http';

/**
 * GET /panel/dashboard (PanelDashboardSchema in libs/contracts/src/panel/dashboard.ts): approvals
 * per Turkish business day (UTC+3) and the open queues; amounts in TRY.
 */
export const CHART_DAYS = 7;

export interface DayApprovals {
  approvedCount: number;
  approvedVolume: number;
  medianApprovalSeconds: number | null;
}

export interface DashboardFigures {
  day: string;
  timeZone: string;
  pending: { deposit: number; withdrawal: number };
  days: Array<{ day: string; deposit: DayApprovals; withdrawal: DayApprovals }>;
}

export function loadDashboardFigures(): Promise<DashboardFigures> {
  return panelFetch<DashboardFigures>('/panel/dashboard', { query: { days: CHART_DAYS } });
}
