#!/usr/bin/env node
import { runServiceMain } from '@transfergate/runtime';
import { PanelApiModule } from './panel-api.module.js';
import { PANEL_SETTINGS, panelSettingsFrom } from './panel.settings.js';
import { registerPanelWeb } from './web/panel-web.js';

/**
 * The operator API (and the /admin/ UI) as its own process (distributed mode): every action is a
 * command to the ledger, the callback and webhook logs are queries to their services.
 */
runServiceMain({
  service: 'panel-api',
  module: PanelApiModule,
  providers: ({ runtime }) => [
    {
      provide: PANEL_SETTINGS,
      useValue: {
        ...panelSettingsFrom(runtime.secretKey, {
          testAuthEnabled: runtime.testAuthEnabled,
          paymentPageUrl: runtime.paymentPageUrl,
          rateLimitPerMinute: runtime.rateLimitPerMinute,
          ...(runtime.callbacks?.retryScheduleMs ? { callbackRetryScheduleMs: runtime.callbacks.retryScheduleMs } : {}),
        }),
        ...(runtime.secretRotationOverlapSeconds !== undefined
          ? { secretRotationOverlapSeconds: runtime.secretRotationOverlapSeconds }
          : {}),
      },
    },
  ],
  configureHttp: (fastify) => registerPanelWeb(fastify),
});
