import { z } from 'zod';
import { declarePersonalData } from './personal-data.js';

/**
 * Sign-ins, for the audit log: who signed in or failed to, from where (the event's
 * metadata carries the client IP). Never a password, never a token.
 */
export const OperatorSignedInV1 = z.object({
  operatorId: z.string(),
  username: z.string(),
  /** The password was right and an authenticator code is asked next. */
  secondFactorRequired: z.boolean(),
});

/**
 * The second login step (an authenticator code against a login challenge), passed or failed, so an
 * auditor sees a session opened through 2FA and every wrong code tried against an operator.
 */
export const OperatorSecondFactorVerifiedV1 = z.object({
  operatorId: z.string(),
  username: z.string(),
});
export const OperatorSecondFactorFailedV1 = z.object({
  operatorId: z.string(),
  username: z.string(),
});

export const OperatorSignInFailedV1 = z.object({
  /** As typed (trimmed, at most 64 characters), so a guessed name is visible too. */
  username: z.string().max(64),
  /** Set when the name belongs to an operator. */
  operatorId: z.string().optional(),
});

/**
 * Every sign-in event's `username`: an operator (staff), or the name someone typed, kept for the
 * audit of access attempts (docs/decisions/0067-personal-data.md).
 */
export const SignInPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { username: 'an operator (staff) sign-in, kept for the audit of access attempts' },
});
