import type { ErrorCode } from './error-codes.js';

/**
 * The camel-case error body (libs/runtime errorBody, shape 'camel'): every panel API and /api/auth
 * error, the Merchant form and infrastructure deposits. `details` is the DomainError's details
 * (`validation_failed`: `{ fields: [{ field, problem }] }`, see ErrorDetailsSchema in openapi).
 */
export interface CamelErrorBody {
  success: false;
  message: string;
  errorCode: ErrorCode;
  details?: unknown;
}
