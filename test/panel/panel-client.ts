import type { TestApp } from '../support/test-app.js';

/** A small HTTP client for panel tests: JSON in, status + JSON out, optional bearer token. */
export function panelClient(app: TestApp) {
  async function call(method: string, path: string, body?: unknown, token?: string) {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    // Panel answers are JSON objects; tests assert on their fields loosely.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> };
  }
  return {
    call,
    post: (path: string, body: unknown = {}, token?: string) => call('POST', path, body, token),
    get: (path: string, token?: string) => call('GET', path, undefined, token),
    async login(username: string, password: string) {
      const res = await call('POST', '/api/auth/login', { username, password });
      if (res.status !== 201 || !res.body.accessToken)
        throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { accessToken: string; refreshToken: string; expiresIn: number };
    },
  };
}
