#!/usr/bin/env node
import { runServiceMain } from '@transfergate/runtime';
import { LedgerModule } from './ledger.module.js';
import { ENGINE_SETTINGS, type EngineSettings } from './engines/engine-settings.js';
import { LEDGER_SETTINGS, type LedgerSettings } from './ledger.settings.js';

/**
 * The ledger as its own process (distributed mode): the only writer of events and the owner of the
 * read models; answers commands and queries from the other services over the transport.
 */
runServiceMain({
  service: 'ledger',
  module: LedgerModule,
  eventStore: true,
  providers: ({ runtime, engines }) => [
    {
      provide: LEDGER_SETTINGS,
      useValue: {
        depositTtlMs: runtime.depositTtlMs,
        fourEyes: runtime.fourEyes,
        secretKey: runtime.secretKey,
        callbackAllowedTargets: runtime.callbackAllowedTargets ?? [],
      } satisfies LedgerSettings,
    },
    { provide: ENGINE_SETTINGS, useValue: engines satisfies EngineSettings },
  ],
});
