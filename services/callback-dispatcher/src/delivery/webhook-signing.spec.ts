import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { standardWebhookSignature, webhookIdFor } from './webhook-signing.js';

describe('webhookIdFor: one callback id per final event', () => {
  const EVENT_ID = '3f2b8c1e-7a4d-4e5f-9b6a-0c1d2e3f4a5b';

  it('is a UUID v5, the same for the same event in any spelling, different for another event', () => {
    const id = webhookIdFor(EVENT_ID);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(webhookIdFor(EVENT_ID)).toBe(id);
    expect(webhookIdFor(EVENT_ID.toUpperCase())).toBe(id);
    expect(webhookIdFor('3f2b8c1e-7a4d-4e5f-9b6a-0c1d2e3f4a5c')).not.toBe(id);
  });
});

describe('standardWebhookSignature: v1, base64 HMAC-SHA256 over id.timestamp.body', () => {
  const SECRET = 'sk_test_1';
  const BODY = '{"transactionId":"T-1","status":"confirm","amount":150.5}';

  it('is the HMAC of `${id}.${timestamp}.${body}` keyed by the secret as UTF-8', () => {
    const expected = createHmac('sha256', 'sk_test_1').update(`msg_1.1700000000.${BODY}`).digest('base64');
    expect(standardWebhookSignature(SECRET, 'msg_1', 1_700_000_000, BODY)).toBe(`v1,${expected}`);
  });

  it('verifies with the Standard Webhooks reference library (base64 key of the same bytes)', () => {
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const signature = standardWebhookSignature(SECRET, 'msg_2', timestampSeconds, BODY);
    const verifier = new Webhook(Buffer.from(SECRET, 'utf8').toString('base64'));
    const headers = {
      'webhook-id': 'msg_2',
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': signature,
    };
    expect(verifier.verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(() => verifier.verify(BODY.replace('150.5', '150.6'), headers)).toThrow();
  });

  it('changes with each of its inputs', () => {
    const base = standardWebhookSignature(SECRET, 'msg_1', 1, BODY);
    expect(standardWebhookSignature('sk_test_2', 'msg_1', 1, BODY)).not.toBe(base);
    expect(standardWebhookSignature(SECRET, 'msg_9', 1, BODY)).not.toBe(base);
    expect(standardWebhookSignature(SECRET, 'msg_1', 2, BODY)).not.toBe(base);
    expect(standardWebhookSignature(SECRET, 'msg_1', 1, `${BODY} `)).not.toBe(base);
  });

  it('keys non-ASCII secrets by their UTF-8 bytes', () => {
    const expected = createHmac('sha256', Buffer.from('şifre-ğ', 'utf8')).update('a.1.b').digest('base64');
    expect(standardWebhookSignature('şifre-ğ', 'a', 1, 'b')).toBe(`v1,${expected}`);
  });
});
