import { ImportStatementHandler } from './import-statement.handler.js';
import { LineDecisions } from './line-decisions.service.js';
import {
  ConfigureReconciliationHandler,
  DismissStatementLineHandler,
  GetReconciliationSettingsHandler,
  GetReconciliationSummaryHandler,
  GetStatementLineHandler,
  ListApprovedWithdrawalsHandler,
  ListStatementLinesForReportHandler,
  ListStatementLinesHandler,
  MatchStatementLineHandler,
} from './reconciliation.handlers.js';
import { ReconciliationStore } from './reconciliation-store.js';

/** The ledger's reconciliation: statement import, matching, decisions, the queue and the setting. */
export const RECONCILIATION_LEDGER_PROVIDERS = [
  ReconciliationStore,
  LineDecisions,
  ImportStatementHandler,
  MatchStatementLineHandler,
  DismissStatementLineHandler,
  ConfigureReconciliationHandler,
  ListStatementLinesHandler,
  GetStatementLineHandler,
  GetReconciliationSettingsHandler,
  GetReconciliationSummaryHandler,
  ListStatementLinesForReportHandler,
  ListApprovedWithdrawalsHandler,
];
