import { PanelTransactionsController } from './panel-transactions.controller.js';
import { PanelTransactionsService } from './panel-transactions.service.js';

/** The panel's transaction side, registered in PanelApiModule. */
export const TRANSACTION_CONTROLLERS = [PanelTransactionsController];
export const TRANSACTION_PROVIDERS = [PanelTransactionsService];
