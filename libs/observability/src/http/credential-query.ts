/**
 * Query parameters that carry credentials. The Infrastructure API accepts GET with every field in
 * the query string (ApiKey, SecurityKey) and the status/test-auth credentials may come that way too
 * (ApiSecret), so a URL must never reach a log line or a span as it came. Names are matched
 * case-insensitively, in every spelling the forms accept.
 */
const CREDENTIAL_PARAM =
  /^(security_?key|api_?secret|api_?key|x-api-key|x-api-secret|hash|signature|sig|secret|password|token|access_?token|refresh_?token)$/i;

export const REDACTED_QUERY_VALUE = 'REDACTED';

/** A query string (without `?`) with the value of every credential parameter replaced. */
export function redactCredentialQuery(query: string): string {
  const params = new URLSearchParams(query);
  for (const name of new Set(params.keys())) {
    if (CREDENTIAL_PARAM.test(name)) params.set(name, REDACTED_QUERY_VALUE);
  }
  return params.toString();
}
