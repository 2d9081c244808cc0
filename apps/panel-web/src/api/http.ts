import { HttpError } from 'react-admin';
import type { CamelErrorBody } from '@transfergate/contracts/errors';
import type { TokenResponse } from '@transfergate/contracts/panel';
import { translateOutsideReact } from '../i18n/translator';
import { clearSession, readSession, saveSession } from './session';

export interface PanelFetchInit {
  method?: string;
  body?: unknown;
  /** A file sent as it is (application/octet-stream): statement uploads. */
  rawBody?: Blob;
  query?: Record<string, string | number | undefined>;
}

/**
 * The panel API's one error shape, `{ success: false, message, errorCode, details? }`; read
 * defensively (a proxy in between may answer something else).
 */
type ApiErrorBody = Partial<Record<keyof CamelErrorBody, unknown>>;

/** Concurrent 401s share one refresh: the refresh token rotates, a second use would be "reused". */
let refreshing: Promise<boolean> | null = null;

async function refreshOnce(): Promise<boolean> {
  refreshing ??= (async () => {
    const session = readSession();
    if (!session) return false;
    const response = await fetch('/api/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: session.refreshToken }),
    });
    if (!response.ok) {
      clearSession();
      return false;
    }
    const tokens = (await response.json()) as TokenResponse;
    saveSession(tokens);
    return true;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function urlOf(path: string, query: PanelFetchInit['query']): string {
  if (!path.startsWith('/')) throw new Error(`panelFetch wants an absolute API path, got ${path}`);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function send(url: string, init: PanelFetchInit): Promise<Response> {
  const session = readSession();
  const hasBody = init.body !== undefined || init.rawBody !== undefined;
  return fetch(url, {
    method: init.method ?? (hasBody ? 'POST' : 'GET'),
    headers: {
      accept: 'application/json',
      ...(init.rawBody !== undefined
        ? { 'content-type': 'application/octet-stream' }
        : hasBody
          ? { 'content-type': 'application/json' }
          : {}),
      ...(session ? { authorization: `Bearer ${session.accessToken}` } : {}),
    },
    ...(init.rawBody !== undefined ? { body: init.rawBody } : hasBody ? { body: JSON.stringify(init.body) } : {}),
  });
}

/**
 * The operator reads the sentence for the answer's stable `errorCode` in the UI's language
 * (tg.errors.*), never the API's English `message`, which stays in the error's body for logs.
 */
export function errorMessage(body: unknown, response: { status: number; statusText: string }): string {
  const code =
    typeof body === 'object' && body !== null && typeof (body as ApiErrorBody).errorCode === 'string'
      ? ((body as ApiErrorBody).errorCode as string)
      : undefined;
  const known = code ? translateOutsideReact(`tg.errors.${code}`, { _: '' }) : null;
  if (known) return known;
  return (
    translateOutsideReact('tg.errors.unknown', { status: response.status }) ??
    (typeof body === 'object' && body !== null && typeof (body as ApiErrorBody).message === 'string'
      ? ((body as ApiErrorBody).message as string)
      : response.statusText || `HTTP ${response.status}`)
  );
}

/**
 * Calls the panel API with the operator's access token. On a 401 it refreshes the token once and
 * retries; any other non-2xx becomes react-admin's HttpError with the API's message, so
 * notifications show what the server said.
 */
export async function panelFetch<T>(path: string, init: PanelFetchInit = {}): Promise<T> {
  const url = urlOf(path, init.query);
  let response = await send(url, init);
  if (response.status === 401 && readSession() && (await refreshOnce())) response = await send(url, init);
  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) throw new HttpError(errorMessage(body, response), response.status, body);
  return body as T;
}
