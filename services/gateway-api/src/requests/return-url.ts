import { DomainError, type ProviderCredentials } from '@transfergate/contracts';

/**
 * A deposit's return URL: the payment page links back to it, so it must not become an open redirect
 * to anywhere. It must be http(s), carry no user name or password, and be on an origin (scheme, host,
 * port) the integration registered: the origins of its callback_deposit and callback_withdrawal URLs,
 * which an admin set. Anything else is refused with 400 return_url_refused, naming the allowed origins.
 * Empty or absent: no link.
 */
export function checkedReturnUrl(
  field: string,
  value: string | undefined,
  provider: Pick<ProviderCredentials, 'callbackDeposit' | 'callbackWithdrawal'>,
): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const allowed = registeredOrigins(provider);
  const refuse = (why: string) =>
    new DomainError(
      'return_url_refused',
      `${field} ${why}; it must be on an origin registered for this integration (${allowed.join(', ') || 'none registered'})`,
      { field, allowedOrigins: allowed },
    );
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw refuse('is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(`uses ${url.protocol} (http or https only)`);
  if (url.username || url.password) throw refuse('must not contain a user name or password');
  if (!allowed.includes(url.origin)) throw refuse(`${url.origin} is not allowed`);
  return url.href;
}

function registeredOrigins(provider: Pick<ProviderCredentials, 'callbackDeposit' | 'callbackWithdrawal'>): string[] {
  const origins = new Set<string>();
  for (const registered of [provider.callbackDeposit, provider.callbackWithdrawal]) {
    try {
      const origin = new URL(registered).origin;
      if (origin !== 'null') origins.add(origin);
    } catch {
      // not a URL (never saved so, but an empty one is possible): no origin from it
    }
  }
  return [...origins];
}
