import type { ErrorCode } from './error-codes.js';

/**
 * A refusal the domain decided on purpose (bad amount, duplicate, wrong state ...).
 * Crosses the command bus as { errorCode, message, details } and becomes the form-shaped HTTP error.
 */
export class DomainError extends Error {
  constructor(
    readonly errorCode: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toJSON(): { errorCode: ErrorCode; message: string; details?: Record<string, unknown> } {
    return { errorCode: this.errorCode, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
