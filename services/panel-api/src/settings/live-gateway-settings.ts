/**
 * The gateway's live settings object (GatewaySettings, token GATEWAY_SETTINGS in gateway-api). The
 * panel may not import the gateway (services never import each other), so the token and the shape
 * are repeated here; test/panel/records.spec.ts asserts the token is the gateway's. The gateway
 * reads the object on every request, so writing to it applies a setting at once. In a process that
 * runs the panel without the gateway the token is absent and nothing is applied here.
 */
export const LIVE_GATEWAY_SETTINGS = 'transfergate:GatewaySettings';

export interface LiveGatewaySettings {
  paymentPageUrl: string;
  testAuthEnabled: boolean;
  environment: 'production' | 'development';
  rateLimitPerMinute: number;
}
