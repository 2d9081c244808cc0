/**
 * Stable machine error codes (Stripe style): the `errorCode` field of every error body.
 * Codes never change meaning once shipped; new cases get new codes.
 */
export const ERROR_CODES = {
  validation_failed: 400,
  malformed_json: 400,
  invalid_amount: 400,
  invalid_iban: 400,
  invalid_credentials: 401,
  invalid_signature: 401,
  authentication_required: 401,
  invalid_token: 401,
  refresh_token_reused: 401,
  invalid_two_factor_code: 401,
  /** A second verify of a challenge that already opened a session (a double-click): not a failure. */
  two_factor_code_used: 409,
  permission_denied: 403,
  /** The account's role requires 2FA and none is set up: POST /api/auth/2fa/setup/init with username and password. */
  two_factor_setup_required: 403,
  weak_password: 400,
  account_locked: 429,
  ip_not_allowed: 403,
  form_not_enabled: 403,
  provider_disabled: 403,
  merchant_disabled: 403,
  /** A risk rule refused the request; the answer never says which rule or list. */
  risk_refused: 403,
  /** A sandbox route called with a provider that is not a sandbox provider. */
  sandbox_only: 403,
  callback_url_mismatch: 400,
  /** A callback URL the egress policy refuses (internal address, user info, not http(s)). */
  callback_url_refused: 400,
  /** A deposit's return URL that is not on an origin registered for the integration. */
  return_url_refused: 400,
  not_found: 404,
  transaction_not_found: 404,
  /** A known path asked with a method it does not answer; the `Allow` header lists those it does. */
  method_not_allowed: 405,
  duplicate_transaction: 409,
  concurrency_conflict: 409,
  already_exists: 409,
  /** An Infrastructure API OperationGuid already used by another request of this provider. */
  operation_guid_reused: 409,
  payload_too_large: 413,
  amount_out_of_range: 422,
  insufficient_balance: 422,
  invalid_state_transition: 422,
  transaction_final: 422,
  /** An upstream webhook approved a different amount than the transaction's: held for an operator. */
  amount_mismatch: 422,
  /** A bank statement file refused whole (unreadable, wrong account, a bad line): `details.problems` says why. */
  statement_refused: 422,
  /** A statement line already matched or dismissed, or a deposit already matched to another line. */
  line_decided: 409,
  /** An amount change waits for a second operator already: approve or reject it first. */
  amount_change_pending: 409,
  /** The amount change named is not waiting (approved, rejected or replaced meanwhile). */
  amount_change_not_pending: 409,
  /** Four eyes: the operator who asked for an amount change cannot approve it. */
  four_eyes_same_operator: 403,
  rate_limited: 429,
  no_receiving_account: 503,
  unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code];
}
