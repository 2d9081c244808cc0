import { HttpError } from 'react-admin';
import type { LoginResponse, MeResponse, TokenResponse, TwoFactorSetupResponse } from '@transfergate/contracts/panel';
import { errorMessage, panelFetch } from '../api/http';
import { clearSession, saveSession, type SessionTokens } from '../api/session';

/** GET /api/auth/me. */
export type Me = MeResponse;

export type PasswordStep =
  | { kind: 'tokens'; tokens: SessionTokens }
  | { kind: 'challenge'; challengeToken: string }
  /** The account's role requires 2FA and it has none yet (merchant admins): enrol first. */
  | { kind: 'setup_required' };

async function postAnonymous<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    throw new HttpError(errorMessage(json, response), response.status, json);
  }
  return json as T;
}

/** Step 1: username + password. Answers tokens, or a challenge when the operator has 2FA. */
export async function loginWithPassword(username: string, password: string): Promise<PasswordStep> {
  let answer: LoginResponse;
  try {
    answer = await postAnonymous<LoginResponse>('/api/auth/login', { username, password });
  } catch (failure) {
    const body = (failure as HttpError).body as { errorCode?: string } | undefined;
    if (body?.errorCode === 'two_factor_setup_required') return { kind: 'setup_required' };
    throw failure;
  }
  if ('twoFactorRequired' in answer && answer.twoFactorRequired === true) {
    return { kind: 'challenge', challengeToken: answer.challengeToken };
  }
  return { kind: 'tokens', tokens: answer as TokenResponse };
}

/** Enrolment before the first sign-in (accounts that must have 2FA): username + password. */
export function startTwoFactorSetup(username: string, password: string): Promise<TwoFactorSetupResponse> {
  return postAnonymous<TwoFactorSetupResponse>('/api/auth/2fa/setup/init', { username, password });
}

export function confirmTwoFactorSetup(setupToken: string, code: string): Promise<unknown> {
  return postAnonymous('/api/auth/2fa/setup/confirm', { setupToken, code });
}

/** Step 2 (2FA): the challenge and a TOTP code. */
export async function verifyTwoFactor(challengeToken: string, code: string): Promise<SessionTokens> {
  return postAnonymous<TokenResponse>('/api/auth/2fa/verify', { challengeToken, code });
}

let me: Promise<Me> | null = null;

/** The signed-in operator, fetched once per session (permissions change only with a new login). */
export function currentOperator(): Promise<Me> {
  me ??= panelFetch<Me>('/api/auth/me').catch((error: unknown) => {
    me = null;
    throw error;
  });
  return me;
}

export function openSession(tokens: SessionTokens): void {
  saveSession(tokens);
  me = null;
}

export async function closeSession(): Promise<void> {
  try {
    await panelFetch('/api/auth/logout', { method: 'POST', body: {} });
  } catch {
    // Logging out must work with an expired or revoked session too.
  }
  clearSession();
  me = null;
}
