#!/usr/bin/env node
import { runServiceMain } from '@transfergate/runtime';
import { CallbackDispatcherModule } from './callback-dispatcher.module.js';
import { CALLBACK_SETTINGS, callbackSettingsFrom } from './callback.settings.js';

/**
 * The callback dispatcher as its own process (distributed mode). Any number of instances share the
 * work: the enqueuer is a leased consumer, deliveries are claimed with FOR UPDATE SKIP LOCKED.
 */
runServiceMain({
  service: 'callback-dispatcher',
  module: CallbackDispatcherModule,
  eventStore: true,
  providers: ({ runtime }) => [
    {
      provide: CALLBACK_SETTINGS,
      useValue: {
        ...callbackSettingsFrom(runtime.secretKey),
        ...(runtime.callbacks ?? {}),
        allowedTargets: runtime.callbackAllowedTargets ?? [],
      },
    },
  ],
});
