import type { PanelCallbackDetail } from '@transfergate/contracts';
import { redactSecretFields, redactSecretText, secretValuesIn } from '../secrets/secret-redaction.js';

/**
 * A delivery as an operator without `secrets.view` sees it: the body's SecurityKey / signature
 * blanked, and the same values (or secret JSON fields) blanked in what the receiver answered and in
 * the errors, since a receiver may echo the body back.
 */
export function redactCallbackDetail(detail: PanelCallbackDetail): PanelCallbackDetail {
  const values = secretValuesIn(detail.body);
  return {
    ...detail,
    body: redactSecretFields(detail.body),
    lastError: redactSecretText(detail.lastError, values),
    attempts: detail.attempts.map((attempt) => ({
      ...attempt,
      error: redactSecretText(attempt.error, values),
      responseExcerpt: redactSecretText(attempt.responseExcerpt, values),
    })),
  };
}
