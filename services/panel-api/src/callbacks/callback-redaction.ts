import type { PanelCallbackDelivery, PanelCallbackDetail, PanelCallbackPage } from '@transfergate/contracts';
import { REDACTED, redactSecretFields, redactSecretText, secretValuesIn } from '../secrets/secret-redaction.js';

/**
 * The dispatcher's error for a 3xx answer names where the receiver pointed (http-delivery.ts:
 * `redirect 302 not followed (to <Location>)`). That target is the receiver's text: it may carry the
 * signature it was sent, or a token of its own, in its path or query, where neither the body's secret
 * values nor secret field names necessarily find it. Operators without `secrets.view` see its origin
 * only.
 */
const REDIRECT_TARGET = /^(redirect \d{3} not followed \(to )(.*)\)$/s;

function redirectTargetAsOrigin(text: string | null): string | null {
  if (text === null) return null;
  const match = REDIRECT_TARGET.exec(text);
  if (!match) return text;
  let shown = REDACTED;
  try {
    const target = new URL(match[2]!);
    if (target.origin !== 'null') shown = `${target.origin}/${REDACTED}`;
  } catch {
    // A relative or malformed Location: nothing of it is shown.
  }
  return `${match[1]}${shown})`;
}

/** An error or answer text as an operator without `secrets.view` sees it. */
function redactedText(text: string | null, values: ReadonlySet<string>): string | null {
  return redactSecretText(redirectTargetAsOrigin(text), values);
}

/**
 * A delivery as an operator without `secrets.view` sees it: the body's SecurityKey / signature
 * blanked, and the same values (or secret JSON fields) blanked in what the receiver answered and in
 * the errors, since a receiver may echo the body back; a redirect target only as its origin.
 */
export function redactCallbackDetail(detail: PanelCallbackDetail): PanelCallbackDetail {
  const values = secretValuesIn(detail.body);
  return {
    ...detail,
    body: redactSecretFields(detail.body),
    lastError: redactedText(detail.lastError, values),
    attempts: detail.attempts.map((attempt) => ({
      ...attempt,
      error: redactedText(attempt.error, values),
      responseExcerpt: redactSecretText(attempt.responseExcerpt, values),
    })),
  };
}

/**
 * The log's page for an operator without `secrets.view`. The list carries no bodies (so no secret
 * values to look for); its only receiver-controlled text is `lastError`, whose redirect target is shown
 * as its origin, and secret JSON fields in it are blanked.
 */
export function redactCallbackPage(page: PanelCallbackPage): PanelCallbackPage {
  const none = new Set<string>();
  return {
    ...page,
    items: page.items.map((item): PanelCallbackDelivery => ({
      ...item,
      lastError: redactedText(item.lastError, none),
    })),
  };
}
