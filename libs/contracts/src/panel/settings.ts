import { Query } from '@nestjs/cqrs';
import { z } from 'zod';
import type { ApiSettingsInput } from '../commands/config-commands.js';

/**
 * /panel/settings/api: the operator-editable API settings. They are events (ApiSettingsConfigured
 * on stream `settings-api`); before the first save the runtime configuration (environment) holds.
 */

/** docs/architecture.md: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS: readonly number[] = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

const httpUrl = z
  .url({ protocol: /^https?$/ })
  .max(512)
  .refine((url) => !/[?#]/.test(url), 'the payment page URL is a base: no query or fragment')
  .transform((url) => url.replace(/\/+$/, ''));

/** A partial update: fields left out keep their value. `paymentPageUrl` is accepted for `payment_page_url`. */
export const ApiSettingsRequestSchema = z
  .object({
    testAuthEnabled: z.boolean().optional(),
    payment_page_url: httpUrl.optional(),
    paymentPageUrl: httpUrl.optional(),
    depositTtlMinutes: z.number().int().min(1).max(1440).optional(),
    callbackRetryScheduleSeconds: z.array(z.number().int().min(0).max(86_400)).min(1).max(20).optional(),
    rateLimitPerMinute: z.number().int().min(0).max(1_000_000).optional(),
  })
  // An unknown key is refused (400 naming it), never silently ignored: a typo must not look saved.
  .strict()
  .refine(
    (body) => !(body.payment_page_url && body.paymentPageUrl && body.payment_page_url !== body.paymentPageUrl),
    'payment_page_url and paymentPageUrl differ',
  );
export type ApiSettingsRequest = z.infer<typeof ApiSettingsRequestSchema>;

/** The settings as stored, with who changed them last. */
export interface ApiSettingsState {
  /** The last ApiSettingsConfigured, or null when nobody saved settings yet. */
  stored: ApiSettingsInput | null;
  updatedAt: string | null;
  /** Operator id (or source) of the last change. */
  updatedBy: string | null;
  /** The deposit TTL the ledger decides with right now (its configuration until a save). */
  depositTtlMinutes: number;
}

/** Read from the `settings-api` stream itself (no projection lag: it runs at start-up too). */
export class GetApiSettingsQuery extends Query<ApiSettingsState> {}
