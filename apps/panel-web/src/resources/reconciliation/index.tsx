import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import type { PanelResource } from '../types';
import { ReconciliationPage } from './reconciliation-page';

/** The reconciliation screen: statement import and the queue (its own page, no react-admin data provider). */
export const reconciliationResource: PanelResource = {
  name: 'reconciliation',
  list: ReconciliationPage,
  icon: AccountBalanceIcon,
  options: { label: 'recon.title' },
};

export { messages } from './messages';
