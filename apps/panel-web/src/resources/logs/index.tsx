import type { DataProvider } from 'react-admin';
import type { PanelResource } from '../types';
import { auditDataProvider, auditResource } from './audit';
import { callbacksDataProvider, callbacksResource } from './callbacks';
import { en, tr } from './messages';
import { webhooksDataProvider, webhooksResource } from './webhooks';

/** The log screens: outgoing callbacks (with resend), incoming webhooks, the audit log. */
export const resources: PanelResource[] = [callbacksResource, webhooksResource, auditResource];

export const dataProviders: Record<string, Partial<DataProvider>> = {
  callbacks: callbacksDataProvider,
  webhooks: webhooksDataProvider,
  audit: auditDataProvider,
};

/** The permission each screen needs (see records/index.tsx). */
export const viewPermissions: Record<string, string> = {
  callbacks: 'callbacks.view',
  webhooks: 'callbacks.view',
  audit: 'audit.view',
};

export const messages: { en: object; tr: object } = { en, tr };
