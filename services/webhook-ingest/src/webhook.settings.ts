/**
 * webhook-ingest settings. The only one is the alias map of the contract's "alias paths locked to one
 * infrastructure slug" (POST /deposit/callback/<alias>, /withdraw/callback/<alias>,
 * /withdrawal/callback/<alias>, bare and under /api).
 *
 * WEBHOOK_ALIASES (environment, read once at start) = comma-separated `alias=slug` entries, e.g.
 *   WEBHOOK_ALIASES="eqopay=demo-h2h,acmepay=acme"
 * An alias is matched without regard to hyphens and case, so `eqopay=demo-h2h` serves both spellings
 * the contract has, /deposit/callback/eqopay and /deposit/callback/eqo-pay (`eqo-pay=demo-h2h` is the
 * same entry). An alias never shadows an infrastructure: a path segment that is a real slug always
 * means that infrastructure, and only an unknown one is looked up here. A malformed entry, or one
 * alias given two different slugs, stops the start.
 */
export const WEBHOOK_SETTINGS = 'WEBHOOK_SETTINGS';

export interface WebhookSettings {
  /** Normalised alias (lower case, no hyphens) → infrastructure slug. */
  aliases: ReadonlyMap<string, string>;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The key an alias (or a path segment looked up as one) is compared by. */
export function aliasKey(segment: string): string {
  return segment.toLowerCase().replace(/-/g, '');
}

export class WebhookSettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid WEBHOOK_ALIASES:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'WebhookSettingsError';
  }
}

export function parseWebhookAliases(text: string | undefined): ReadonlyMap<string, string> {
  const aliases = new Map<string, string>();
  const problems: string[] = [];
  for (const entry of (text ?? '').split(',').map((s) => s.trim())) {
    if (!entry) continue;
    const match = /^([^=\s]+)\s*=\s*([^=\s]+)$/.exec(entry);
    const alias = match?.[1]?.toLowerCase();
    const slug = match?.[2]?.toLowerCase();
    if (!alias || !slug || !SLUG.test(alias) || !SLUG.test(slug) || !aliasKey(alias)) {
      problems.push(`"${entry}" is not alias=slug (each 1..63 of a-z, 0-9 and -)`);
      continue;
    }
    const key = aliasKey(alias);
    const earlier = aliases.get(key);
    if (earlier !== undefined && earlier !== slug) {
      problems.push(`alias "${alias}" is given two slugs ("${earlier}" and "${slug}")`);
      continue;
    }
    aliases.set(key, slug);
  }
  if (problems.length > 0) throw new WebhookSettingsError(problems);
  return aliases;
}

export function webhookSettingsFrom(env: NodeJS.ProcessEnv): WebhookSettings {
  return { aliases: parseWebhookAliases(env.WEBHOOK_ALIASES) };
}
