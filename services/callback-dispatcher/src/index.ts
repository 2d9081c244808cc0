export * from './callback-dispatcher.module.js';
export * from './callback.settings.js';
export { webhookIdFor, standardWebhookSignature } from './delivery/webhook-signing.js';
