import type { PanelDashboard } from '@transfergate/contracts/panel';
import { panelFetch } from '../api/http';

/**
 * GET /panel/dashboard (PanelDashboardSchema in libs/contracts/src/panel/dashboard.ts): approvals
 * per Turkish business day (UTC+3) and the open queues; amounts in TRY.
 */
export const CHART_DAYS = 7;

export function loadDashboardFigures(): Promise<PanelDashboard> {
  return panelFetch<PanelDashboard>('/panel/dashboard', { query: { days: CHART_DAYS } });
}
