import { z } from 'zod';

/**
 * /test-auth (any HTTP method): checks an ApiKey/ApiSecret pair given in the body, query or headers.
 * Open only in development or when the `testAuthEnabled` setting is true; otherwise 404.
 * On a match: `{ success: true, providerId, providerName }`; on a mismatch: `{ success: false, message }`
 * (message states invalid credentials) plus the stable `errorCode` every error body carries.
 */

export const TestAuthSuccessResponseSchema = z.object({
  success: z.literal(true),
  /** The provider's integer number (not its internal uuid). */
  providerId: z.number().int(),
  providerName: z.string(),
  message: z.string().optional(),
});
export type TestAuthSuccessResponse = z.infer<typeof TestAuthSuccessResponseSchema>;

export const TestAuthFailureResponseSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errorCode: z.string(),
});
export type TestAuthFailureResponse = z.infer<typeof TestAuthFailureResponseSchema>;

export const TestAuthResponseSchema = z.discriminatedUnion('success', [
  TestAuthSuccessResponseSchema,
  TestAuthFailureResponseSchema,
]);
export type TestAuthResponse = z.infer<typeof TestAuthResponseSchema>;
