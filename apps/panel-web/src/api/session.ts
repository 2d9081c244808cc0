import type { TokenResponse } from '@transfergate/contracts/panel';

/**
 * The operator's session tokens. sessionStorage (not localStorage): the session dies with the tab,
 * and a second tab asks for a login of its own instead of sharing a refresh token that rotates.
 */
const ACCESS_KEY = 'tg.accessToken';
const REFRESH_KEY = 'tg.refreshToken';

/** The part of a TokenResponse (login, 2FA verify, refresh) the tab keeps. */
export type SessionTokens = Pick<TokenResponse, 'accessToken' | 'refreshToken'>;

export function readSession(): SessionTokens | null {
  const accessToken = sessionStorage.getItem(ACCESS_KEY);
  const refreshToken = sessionStorage.getItem(REFRESH_KEY);
  return accessToken && refreshToken ? { accessToken, refreshToken } : null;
}

export function saveSession(tokens: SessionTokens): void {
  sessionStorage.setItem(ACCESS_KEY, tokens.accessToken);
  sessionStorage.setItem(REFRESH_KEY, tokens.refreshToken);
}

export function clearSession(): void {
  sessionStorage.removeItem(ACCESS_KEY);
  sessionStorage.removeItem(REFRESH_KEY);
}
