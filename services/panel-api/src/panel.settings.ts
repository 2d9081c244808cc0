import { hkdfSync } from 'node:crypto';

/** Settings of operator auth; the runtime builds them from its validated configuration. */
export interface PanelSettings {
  /** HS256 key for access tokens, derived from the sealing key (one secret to manage, separate keys). */
  jwtKey: Uint8Array;
  /** Key sealing TOTP secrets at rest (the same SecretBox key as provider secrets). */
  secretKey: Buffer;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Failed logins or codes before a lock. */
  maxFailedAttempts: number;
  lockoutMs: number;
  /** What this process's configuration (environment) runs with, for API settings no operator has set. */
  runtimeApiSettings: RuntimeApiSettings;
  /** How long a rotated secret stays accepted beside its successor unless the rotation says (SECRET_ROTATION_OVERLAP_HOURS). */
  secretRotationOverlapSeconds: number;
}

/** The default overlap window of a secret rotation: 24 hours. */
export const DEFAULT_SECRET_ROTATION_OVERLAP_SECONDS = 24 * 3_600;

export interface RuntimeApiSettings {
  testAuthEnabled: boolean;
  paymentPageUrl: string;
  rateLimitPerMinute: number;
  /** CALLBACK_RETRY_SCHEDULE_MS; undefined: the default of docs/architecture.md. */
  callbackRetryScheduleMs?: number[];
}

export const PANEL_SETTINGS = 'transfergate:PanelSettings';

export function panelSettingsFrom(secretKey: Buffer, runtimeApiSettings: RuntimeApiSettings): PanelSettings {
  return {
    jwtKey: new Uint8Array(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'transfergate panel access tokens', 32)),
    secretKey,
    accessTokenTtlSeconds: 15 * 60,
    refreshTokenTtlSeconds: 14 * 24 * 3600,
    maxFailedAttempts: 5,
    lockoutMs: 15 * 60_000,
    runtimeApiSettings,
    secretRotationOverlapSeconds: DEFAULT_SECRET_ROTATION_OVERLAP_SECONDS,
  };
}
