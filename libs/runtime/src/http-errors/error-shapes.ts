import type { ErrorCode } from '@transfergate/contracts';

/**
 * Each integration form answers errors in the shape of its own success body (docs/architecture.md),
 * plus the stable `errorCode`: H2H {status:false, code, message}; Infrastructure withdrawals
 * PascalCase {Success:false, Message}; Merchant and Infrastructure deposits {success:false, message}.
 */
export type ErrorShape = 'h2h' | 'pascal' | 'camel';

export function errorShapeForPath(path: string): ErrorShape {
  const bare = path.split('?')[0]!.replace(/^\/api(?=\/|$)/, '');
  if (bare === '/deposit/bank' || bare === '/withdrawal/bank') return 'h2h';
  if (bare.startsWith('/withdraws/withdraw-request')) return 'pascal';
  return 'camel';
}

export function errorBody(shape: ErrorShape, status: number, errorCode: ErrorCode, message: string, details?: unknown) {
  const extra = details === undefined ? {} : { details };
  switch (shape) {
    case 'h2h':
      return { status: false, code: status, message, errorCode, ...extra };
    case 'pascal':
      return { Success: false, Message: message, errorCode, ...extra };
    case 'camel':
      return { success: false, message, errorCode, ...extra };
  }
}
