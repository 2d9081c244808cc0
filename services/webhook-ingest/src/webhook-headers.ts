import type { IncomingHttpHeaders } from 'node:http';

/** Header names never stored: credentials of any kind (the log is readable by operators). */
const SECRET_HEADER = /auth|cookie|secret|token|password|passwd|api[-_]?key|session|signature-key/i;
const MAX_HEADERS = 50;

/** The request headers worth keeping in the webhook log, without credentials, bounded in number. */
export function loggableHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || SECRET_HEADER.test(name)) continue;
    if (++count > MAX_HEADERS) break;
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return kept;
}
