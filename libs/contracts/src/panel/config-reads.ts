import { Query } from '@nestjs/cqrs';

/** GET /api/config/dashboard: today's figures from rm_transactions (Turkish business day, UTC+3). */
export interface DashboardTypeState {
  type: 'deposit' | 'withdrawal';
  state: string;
  count: number;
  volumeKurus: string;
}

export interface DashboardData {
  /** The Turkish business day (YYYY-MM-DD) the figures are for. */
  day: string;
  /** Transactions created today, by type and state. */
  today: DashboardTypeState[];
  /** Open queues now, whatever day the transactions were created. */
  queues: {
    depositsAwaitingPayment: number;
    depositsPaymentReported: number;
    withdrawalsPending: number;
    withdrawalsProcessing: number;
  };
}

/** GET /api/config/permissions: the permission catalogue with descriptions and the built-in roles. */
export interface PermissionCatalogue {
  permissions: Array<{ name: string; description: string }>;
  builtInRoles: Array<{ name: string; permissions: readonly string[] }>;
}

export class DashboardQuery extends Query<DashboardData> {}
