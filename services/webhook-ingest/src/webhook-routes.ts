import type { WebhookKind } from '@transfergate/contracts';

/**
 * The contract's incoming-webhook paths, each bare and under /api. `withdraw` and `withdrawal` are
 * synonyms. `:slug` is an infrastructure slug or an alias (see webhook.settings.ts).
 */
export const WEBHOOK_ROUTES: Record<WebhookKind, string[]> = {
  deposit: ['deposit/callback/:slug', 'api/deposit/callback/:slug'],
  withdrawal: [
    'withdraw/callback/:slug',
    'api/withdraw/callback/:slug',
    'withdrawal/callback/:slug',
    'api/withdrawal/callback/:slug',
  ],
};

const KIND_BY_ROUTE = new Map<string, WebhookKind>(
  (Object.entries(WEBHOOK_ROUTES) as [WebhookKind, string[]][]).flatMap(([kind, paths]) =>
    paths.map((path) => [`/${path}`, kind] as [string, WebhookKind]),
  ),
);

/** The webhook kind of a matched Fastify route pattern (`/deposit/callback/:slug` …), else undefined. */
export function webhookKindOfRoute(routeUrl: string | undefined): WebhookKind | undefined {
  return routeUrl === undefined ? undefined : KIND_BY_ROUTE.get(routeUrl);
}

/** Fastify's default body limit, for a request that does not say its own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
