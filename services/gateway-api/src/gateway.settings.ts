/**
 * Gateway settings from the runtime configuration. Issue #4 moves the operator-editable ones
 * (payment page URL, test-auth switch, rate limit) into /panel/settings/api events.
 */
export interface GatewaySettings {
  /** Base of payment page links: `{paymentPageUrl}/payment/{token}`. */
  paymentPageUrl: string;
  /** /test-auth answers only when true or in development. */
  testAuthEnabled: boolean;
  environment: 'production' | 'development';
  /** Requests per minute per provider (API key); 0 disables the limit. */
  rateLimitPerMinute: number;
}

export const GATEWAY_SETTINGS = 'transfergate:GatewaySettings';
