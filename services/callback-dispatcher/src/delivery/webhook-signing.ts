import { createHmac } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';

/** Namespace of the callback webhook ids (UUID v5 names are the approval/rejection event ids). */
const WEBHOOK_ID_NAMESPACE = '6b0e3f0c-1c5e-4d5a-9f57-1a3c2b7d9e41';

/**
 * The `webhook-id` of a transaction's callback: a UUID v5 of the event that made it final, so it
 * is the same on every retry, every resend and every re-run of the consumer.
 */
export function webhookIdFor(eventId: string): string {
  // Lower-cased: the same event id in any spelling names the same callback.
  return uuidv5(eventId.toLowerCase(), WEBHOOK_ID_NAMESPACE);
}

/**
 * Standard Webhooks signature: `v1,` + base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)).
 * The key is the provider's API secret as UTF-8 bytes.
 */
export function standardWebhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestampSeconds}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}
