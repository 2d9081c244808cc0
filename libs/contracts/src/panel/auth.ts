import { z } from 'zod';
import { rawText, requestText } from '../http/text.js';

/** Operator auth bodies (the contract names the routes and the two 2FA DTOs; the rest is ours). */
export const LoginRequestSchema = z.object({ username: requestText(64), password: rawText(256) });
export const RefreshRequestSchema = z.object({ refreshToken: rawText(256) });
export const LogoutRequestSchema = z.object({ refreshToken: rawText(256).optional() });
export const PasswordChangeRequestSchema = z.object({ oldPassword: rawText(256), newPassword: rawText(256) });
export const TwoFactorVerifyRequestSchema = z.object({
  challengeToken: rawText(512),
  code: z.string().regex(/^\d{6}$/),
});
/** The contract's `TwoFactorSetupConfirmDto`. */
export const TwoFactorSetupConfirmDtoSchema = z.object({
  code: z.string().regex(/^\d{6}$/),
  setupToken: rawText(512).optional(),
});
/** The contract's `TwoFactorDisableDto`. */
export const TwoFactorDisableDtoSchema = z.object({ password: rawText(256), code: z.string().regex(/^\d{6}$/) });

export const TokenResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  /** Access token lifetime in seconds. */
  expiresIn: z.number().int(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** POST /api/auth/login for an operator with 2FA: the second step (/api/auth/2fa/verify) answers the tokens. */
export const TwoFactorChallengeResponseSchema = z.object({
  twoFactorRequired: z.literal(true),
  challengeToken: z.string(),
});
export type TwoFactorChallengeResponse = z.infer<typeof TwoFactorChallengeResponseSchema>;

/** POST /api/auth/login: tokens, or a challenge when the operator has 2FA. */
export type LoginResponse = TokenResponse | TwoFactorChallengeResponse;

/** POST /api/auth/2fa/setup/init: the TOTP enrollment; /setup/confirm takes `setupToken` and a code. */
export const TwoFactorSetupResponseSchema = z.object({
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code PNG `data:` URL. */
  qrCodeDataUrl: z.string(),
  /** Signed, short-lived: carries the sealed secret until the first code confirms it. */
  setupToken: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof TwoFactorSetupResponseSchema>;

export const MeResponseSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.string(),
  permissions: z.array(z.string()),
  twoFactorEnabled: z.boolean(),
  /** A merchant user's merchant (the portal's scope); absent for operators. */
  merchantId: z.string().optional(),
});
/** GET /api/auth/me. */
export type MeResponse = z.infer<typeof MeResponseSchema>;
