import { WebhookSettingsError, loggableHeaders, parseWebhookAliases } from '@transfergate/webhook-ingest';

/**
 * The pure parts of webhook-ingest read at its start and when logging: aliases and headers (the body's
 * status words and id fields: services/webhook-ingest/src/webhook-body.spec.ts).
 */
describe('webhook-ingest units', () => {
  it('parses WEBHOOK_ALIASES: both spellings, no conflicts, bad entries stop the start', () => {
    const aliases = parseWebhookAliases('eqopay=demo-h2h, acme-pay=acme');
    expect([...aliases.entries()]).toEqual([
      ['eqopay', 'demo-h2h'],
      ['acmepay', 'acme'],
    ]);
    expect(parseWebhookAliases(undefined).size).toBe(0);
    expect(parseWebhookAliases('eqopay=demo,eqo-pay=demo').size).toBe(1);
    expect(() => parseWebhookAliases('eqopay=one,eqo-pay=two')).toThrow(WebhookSettingsError);
    expect(() => parseWebhookAliases('eqopay')).toThrow(/alias=slug/);
    expect(() => parseWebhookAliases('a b=c')).toThrow(WebhookSettingsError);
    expect(() => parseWebhookAliases('-=slug')).toThrow(WebhookSettingsError);
  });

  it('keeps credentials out of logged headers', () => {
    expect(
      loggableHeaders({
        authorization: 'Bearer x',
        'proxy-authorization': 'x',
        cookie: 'x',
        'x-api-key': 'x',
        'x-api-secret': 'x',
        'x-auth-token': 'x',
        'content-type': 'application/json',
        'x-forwarded-for': ['10.0.0.1', '10.0.0.2'],
        'webhook-id': 'msg_1',
      }),
    ).toEqual({ 'content-type': 'application/json', 'x-forwarded-for': '10.0.0.1, 10.0.0.2', 'webhook-id': 'msg_1' });
  });
});
