import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import { lazy, Suspense } from 'react';
import { Admin, CustomRoutes, Loading, Resource, usePermissions } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { MerchantHome, MerchantTransaction, MerchantTransactions } from './portal/merchant-portal';
import { dataProvider } from './api/data-provider';
import { authProvider } from './auth/auth-provider';
import { LoginPage } from './auth/login-page';
import { TwoFactorSetup } from './auth/two-factor-setup';
import { i18nProvider } from './i18n/i18n-provider';
import { DepositsMenuIcon } from './layout/attention';
import { PanelLayout } from './layout/panel-layout';
import { resources as logResources, viewPermissions as logViewPermissions } from './resources/logs/index';
import { resources as recordResources, viewPermissions as recordViewPermissions } from './resources/records/index';
import { reconciliationResource } from './resources/reconciliation/index';
import { statementResource } from './resources/statements/statement-page';
import { amountChangesResource } from './resources/transactions/amount-changes-page';
import { TransactionQueue } from './resources/transactions/transaction-queue';
import { TransactionShow } from './resources/transactions/transaction-show';
import type { PanelResource } from './resources/types';
import { can } from './auth/auth-provider';

/** The chart library is the bulk of the dashboard: loaded when the dashboard is first shown. */
const LazyDashboard = lazy(() => import('./dashboard/dashboard').then((module) => ({ default: module.Dashboard })));
/** Operators see the dashboard; a merchant user starts in its portal (/merchant). */
function Dashboard() {
  const { permissions, isPending } = usePermissions();
  if (isPending) return <Loading />;
  if (can(permissions, 'portal.view')) return <Navigate to="/merchant" replace />;
  return (
    <Suspense fallback={<Loading />}>
      <LazyDashboard />
    </Suspense>
  );
}

const DepositQueue = () => <TransactionQueue type="deposit" />;
const WithdrawalQueue = () => <TransactionQueue type="withdrawal" />;

const VIEW_PERMISSIONS: Record<string, string> = { ...recordViewPermissions, ...logViewPermissions };

/** A screen is in the menu only when the operator may read it (unknown screens are left out: fail closed). */
function visibleResources(resources: PanelResource[], permissions: unknown) {
  return resources
    .filter((resource) => {
      const needed = VIEW_PERMISSIONS[resource.name];
      return needed !== undefined && can(permissions, needed);
    })
    .map((resource) => <Resource key={resource.name} {...resource} />);
}

/**
 * The operator panel. Resources an operator cannot see are left out of the menu (the API refuses
 * them anyway); the records and log screens come from their own modules.
 */
export function App() {
  return (
    <Admin
      title="transfergate"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      loginPage={LoginPage}
      dashboard={Dashboard}
      layout={PanelLayout}
      requireAuth
      disableTelemetry
    >
      {(permissions: unknown) =>
        can(permissions, 'portal.view')
          ? portalRoutes()
          : [
              can(permissions, 'transactions.view') ? (
                <Resource
                  key="deposits"
                  name="deposits"
                  list={DepositQueue}
                  show={TransactionShow}
                  icon={DepositsMenuIcon}
                  options={{ label: 'tg.tx.deposits' }}
                />
              ) : null,
              can(permissions, 'transactions.view') ? (
                <Resource
                  key="withdrawals"
                  name="withdrawals"
                  list={WithdrawalQueue}
                  show={TransactionShow}
                  icon={ArrowUpwardIcon}
                  options={{ label: 'tg.tx.withdrawals' }}
                />
              ) : null,
              can(permissions, 'transactions.update') ? (
                <Resource key="amount-changes" {...amountChangesResource} />
              ) : null,
              can(permissions, 'reconciliation.view') ? (
                <Resource key="reconciliation" {...reconciliationResource} />
              ) : null,
              ...visibleResources(recordResources, permissions),
              can(permissions, 'statements.view') ? <Resource key="statements" {...statementResource} /> : null,
              ...visibleResources(logResources, permissions),
              <CustomRoutes key="custom">
                <Route path="/two-factor" element={<TwoFactorSetup />} />
              </CustomRoutes>,
            ]
      }
    </Admin>
  );
}

/** A merchant user's screens: its portal only (the API refuses it every operator route anyway). */
function portalRoutes() {
  return [
    <CustomRoutes key="portal">
      <Route path="/merchant" element={<MerchantHome />} />
      <Route path="/merchant/transactions" element={<MerchantTransactions />} />
      <Route path="/merchant/transactions/:id" element={<MerchantTransaction />} />
      <Route path="/two-factor" element={<TwoFactorSetup />} />
    </CustomRoutes>,
  ];
}
