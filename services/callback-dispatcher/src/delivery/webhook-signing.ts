import { createHash, createHmac } from 'node:crypto';

/** Namespace of the callback webhook ids (UUID v5 names are the approval/rejection event ids). */
const WEBHOOK_ID_NAMESPACE = '6b0e3f0c-1c5e-4d5a-9f57-1a3c2b7d9e41';

/**
 * The `webhook-id` of a transaction's callback: a UUID v5 of the event that made it final, so it
 * is the same on every retry, every resend and every re-run of the consumer.
 */
export function webhookIdFor(eventId: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(WEBHOOK_ID_NAMESPACE.replace(/-/g, ''), 'hex'))
    .update(eventId.toLowerCase(), 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Standard Webhooks signature: `v1,` + base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)).
 * The key is the provider's API secret as UTF-8 bytes.
 */
export function standardWebhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestampSeconds}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}
