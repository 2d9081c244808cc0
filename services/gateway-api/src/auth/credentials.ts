import type { FastifyRequest } from 'fastify';

/**
 * Gateway credentials in every accepted spelling (contract "Gateway credentials"): JSON body,
 * query string or headers (ApiKey/apiKey/x-api-key, ApiSecret/apiSecret/x-api-secret), or
 * HTTP Basic base64(key:secret). Headers win over body, body over query.
 */
export interface PresentedCredentials {
  apiKey?: string;
  apiSecret?: string;
}

const KEY_NAMES = ['ApiKey', 'apiKey', 'apikey', 'x-api-key'];
const SECRET_NAMES = ['ApiSecret', 'apiSecret', 'apisecret', 'x-api-secret'];

function pick(source: unknown, names: string[]): string | undefined {
  if (!source || typeof source !== 'object') return undefined;
  const record = source as Record<string, unknown>;
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

export function presentedCredentials(request: FastifyRequest): PresentedCredentials {
  const headers = request.headers as Record<string, unknown>;
  let basic: PresentedCredentials = {};
  const authorization = headers['authorization'];
  if (typeof authorization === 'string' && /^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) basic = { apiKey: decoded.slice(0, colon), apiSecret: decoded.slice(colon + 1) };
  }
  return {
    apiKey:
      pick(headers, ['x-api-key', 'apikey']) ??
      basic.apiKey ??
      pick(request.body, KEY_NAMES) ??
      pick(request.query, KEY_NAMES),
    apiSecret:
      pick(headers, ['x-api-secret', 'apisecret']) ??
      basic.apiSecret ??
      pick(request.body, SECRET_NAMES) ??
      pick(request.query, SECRET_NAMES),
  };
}
