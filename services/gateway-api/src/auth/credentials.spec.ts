import type { FastifyRequest } from 'fastify';
import { presentedCredentials } from './credentials.js';

/** The parts of a Fastify request presentedCredentials reads. */
function request(parts: { headers?: Record<string, string>; body?: unknown; query?: unknown }): FastifyRequest {
  return { headers: parts.headers ?? {}, body: parts.body, query: parts.query ?? {} } as unknown as FastifyRequest;
}
const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

describe('presentedCredentials: every accepted spelling, headers before body before query', () => {
  it('reads each spelling of the body and the query', () => {
    for (const [key, secret] of [
      ['ApiKey', 'ApiSecret'],
      ['apiKey', 'apiSecret'],
      ['apikey', 'apisecret'],
      ['x-api-key', 'x-api-secret'],
    ]) {
      expect(presentedCredentials(request({ body: { [key!]: 'k', [secret!]: 's' } }))).toEqual({
        apiKey: 'k',
        apiSecret: 's',
      });
      expect(presentedCredentials(request({ query: { [key!]: 'k', [secret!]: 's' } }))).toEqual({
        apiKey: 'k',
        apiSecret: 's',
      });
    }
  });

  it('reads x-api-key / x-api-secret headers and HTTP Basic', () => {
    expect(presentedCredentials(request({ headers: { 'x-api-key': 'k', 'x-api-secret': 's' } }))).toEqual({
      apiKey: 'k',
      apiSecret: 's',
    });
    expect(presentedCredentials(request({ headers: { authorization: basic('k:s:with:colons') } }))).toEqual({
      apiKey: 'k',
      apiSecret: 's:with:colons',
    });
    expect(presentedCredentials(request({ headers: { authorization: `basic ${btoa('k:s')}` } }))).toEqual({
      apiKey: 'k',
      apiSecret: 's',
    });
  });

  it('prefers headers, then Basic, then the body, then the query, field by field', () => {
    const everywhere = request({
      headers: { 'x-api-key': 'header-key', authorization: basic('basic-key:basic-secret') },
      body: { apiKey: 'body-key', apiSecret: 'body-secret' },
      query: { apiKey: 'query-key', apiSecret: 'query-secret' },
    });
    expect(presentedCredentials(everywhere)).toEqual({ apiKey: 'header-key', apiSecret: 'basic-secret' });
    expect(
      presentedCredentials(
        request({ body: { ApiKey: 'body-key' }, query: { apiKey: 'q', apiSecret: 'query-secret' } }),
      ),
    ).toEqual({ apiKey: 'body-key', apiSecret: 'query-secret' });
  });

  it('ignores empty, non-text and malformed values', () => {
    expect(presentedCredentials(request({ body: { apiKey: '', apiSecret: 42 } }))).toEqual({
      apiKey: undefined,
      apiSecret: undefined,
    });
    expect(presentedCredentials(request({ body: 'apiKey=k', headers: { authorization: basic(':no-key') } }))).toEqual({
      apiKey: undefined,
      apiSecret: undefined,
    });
    expect(presentedCredentials(request({ headers: { authorization: 'Bearer abc' } }))).toEqual({
      apiKey: undefined,
      apiSecret: undefined,
    });
  });
});
