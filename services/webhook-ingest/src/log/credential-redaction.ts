/**
 * Credential-like values never reach the webhook log (an upstream may sign with or echo a secret;
 * the log is read by operators). Names are matched by pattern, not by a list of spellings:
 * upstreams name the same thing `apiSecret`, `secret_key`, `privateKey`, `pwd`, `X-Credential`...
 * A name is compared with its case and separators dropped (`Api_Secret` → `apisecret`).
 */
const CREDENTIAL_NAME =
  /secret|passw|passphrase|passcode|^pass$|pwd|credential|private|token|apikey|accesskey|securitykey|signature|hash|authorization|cvv|cvc/;

export const REDACTED = '[redacted]';

/** Whether a field, parameter, element or attribute name names a credential. */
export function isCredentialName(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // not percent-encoded text: the name as sent
  }
  // A namespace prefix (`ns:apiSecret`) says nothing about the value.
  const local = decoded.slice(decoded.lastIndexOf(':') + 1);
  return CREDENTIAL_NAME.test(local.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** A JSON.stringify replacer: a credential-named field's value (not an object of them) is blanked. */
export const redactCredentialFields = (key: string, value: unknown): unknown =>
  key !== '' && isCredentialName(key) && (typeof value !== 'object' || value === null) ? REDACTED : value;

/** `name=value`, `name: value`, `"name": "value"`, `name="value"` (form, JSON-like text, XML attributes). */
const NAMED_VALUE = /(["']?)([A-Za-z_][\w.%:-]*)\1(\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,&;}<>]*)/g;
/** `<name ...>value</name>` with text or CDATA inside (XML elements, any namespace prefix). */
const XML_ELEMENT = /<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(\s[^>]*)?>(<!\[CDATA\[[\s\S]*?\]\]>|[^<]*)<\/\1?\2\s*>/g;

/** The same element cut off by the body limit: its text runs to the end. */
const XML_ELEMENT_CUT = /<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(\s[^>]*)?>([^<]*)$/;

/**
 * A body that is not JSON (form-encoded, XML, broken JSON), as text: every credential-named value
 * is blanked, whatever the notation. Quotes around a value are kept so the text still reads as sent.
 */
export function redactCredentialText(text: string): string {
  return text
    .replace(XML_ELEMENT, (whole, prefix: string | undefined, name: string, attributes: string | undefined) =>
      isCredentialName(name)
        ? `<${prefix ?? ''}${name}${attributes ?? ''}>${REDACTED}</${prefix ?? ''}${name}>`
        : whole,
    )
    .replace(XML_ELEMENT_CUT, (whole, prefix: string | undefined, name: string, attributes: string | undefined) =>
      isCredentialName(name) ? `<${prefix ?? ''}${name}${attributes ?? ''}>${REDACTED}` : whole,
    )
    .replace(NAMED_VALUE, (whole, quote: string, name: string, separator: string, value: string) => {
      if (!isCredentialName(name) || value === REDACTED) return whole;
      const wrapped = /^["']/.test(value) ? `${value[0]}${REDACTED}${value[0]}` : REDACTED;
      return `${quote}${name}${quote}${separator}${wrapped}`;
    });
}
