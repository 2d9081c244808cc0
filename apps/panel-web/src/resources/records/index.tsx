import type { DataProvider } from 'react-admin';
import type { PanelResource } from '../types';
import { apiSettingsDataProvider, apiSettingsResource } from './api-settings';
import { bankAccountsDataProvider, bankAccountsResource } from './bank-accounts';
import { infrastructuresDataProvider, infrastructuresResource } from './infrastructures';
import { merchantsDataProvider, merchantsResource } from './merchants';
import { en, tr } from './messages';
import { operatorsDataProvider, operatorsResource } from './operators';
import { providersDataProvider, providersResource } from './providers';
import { rolesDataProvider, rolesResource } from './roles';

/** The record screens: merchants (dealers), providers, infrastructures, bank accounts, roles, operators, API settings. */
export const resources: PanelResource[] = [
  merchantsResource,
  providersResource,
  infrastructuresResource,
  bankAccountsResource,
  operatorsResource,
  rolesResource,
  apiSettingsResource,
];

export const dataProviders: Record<string, Partial<DataProvider>> = {
  merchants: merchantsDataProvider,
  providers: providersDataProvider,
  infrastructures: infrastructuresDataProvider,
  'bank-accounts': bankAccountsDataProvider,
  operators: operatorsDataProvider,
  roles: rolesDataProvider,
  'api-settings': apiSettingsDataProvider,
};

/**
 * The permission an operator needs to see each screen (the app may leave a resource out of the
 * menu without it; the API refuses the reads anyway).
 */
export const viewPermissions: Record<string, string> = {
  merchants: 'merchants.view',
  providers: 'providers.view',
  infrastructures: 'infrastructures.view',
  'bank-accounts': 'bank_accounts.view',
  operators: 'operators.view',
  roles: 'roles.view',
  'api-settings': 'settings.view',
};

export const messages: { en: object; tr: object } = { en, tr };
