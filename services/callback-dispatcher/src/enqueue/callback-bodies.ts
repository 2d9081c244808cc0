import {
  CALLBACK_STATUS,
  H2hCallbackSchema,
  InfrastructureCallbackSchema,
  MerchantCallbackSchema,
  Md5CallbackSchema,
  kurusToNumber,
  md5CallbackSignature,
  type CALLBACK_FORMATS,
} from '@transfergate/contracts';

export type CallbackFormat = (typeof CALLBACK_FORMATS)[number];

/** What a callback body is made of: the transaction as it was when it became final. */
export interface CallbackFacts {
  type: 'deposit' | 'withdrawal';
  outcome: 'approved' | 'rejected';
  /** Internal integer id. */
  number: number;
  /** The caller's transaction id. */
  externalId: string;
  amountKurus: bigint;
  customer: { fullName: string; username?: string; userId?: string; senderName?: string };
  /** Form-specific fields of the original request (OperationGuid, SecurityKey, CustomerMemberId ...). */
  echo: Record<string, string>;
  reason?: string;
  /** When the approval or rejection was recorded (ISO 8601 UTC). */
  decidedAt: string;
}

/**
 * The contract's four callback bodies (libs/contracts/src/http/callbacks.ts), by the infrastructure's
 * callback format. Every body is checked against its schema before it is stored, so a body that
 * breaks the contract never leaves.
 *
 * - Merchant: transactionId, amount, status confirm/cancel.
 * - H2H: type (`withdrawal` for withdrawals), transactionId, status APPROVED/REJECTED, amount,
 *   depositId (internal integer id, for both types), timestamp (decision time, ISO 8601 UTC), uuid
 *   (= transactionId, as the H2H response's `id`), metadata {userID, username, senderName} ('' when
 *   unknown), reason only when rejected.
 * - Infrastructure (PascalCase): SecurityKey and OperationGuidBack echo the original request's
 *   SecurityKey and OperationGuid ('' for transactions not created over that form); CustomerMemberId is
 *   the request's CustomerMemberId, else the customer's username, else ''.
 * - MD5: status confirmed/declined, type deposit/withdrawal, signature =
 *   MD5(transactionId + status + amount + type + apiSecret) with amount as its JSON number text.
 */
export function buildCallbackBody(
  format: CallbackFormat,
  facts: CallbackFacts,
  apiSecret: () => string,
): Record<string, unknown> {
  const amount = kurusToNumber(facts.amountKurus);
  const approved = facts.outcome === 'approved';
  switch (format) {
    case 'merchant': {
      const body = {
        transactionId: facts.externalId,
        amount,
        status: CALLBACK_STATUS.merchant[facts.outcome],
      };
      MerchantCallbackSchema.parse(body);
      return body;
    }
    case 'h2h': {
      const body = {
        type: facts.type,
        transactionId: facts.externalId,
        status: CALLBACK_STATUS.h2h[facts.outcome],
        amount,
        depositId: facts.number,
        timestamp: new Date(facts.decidedAt).toISOString(),
        uuid: facts.externalId,
        metadata: {
          userID: facts.customer.userId ?? '',
          username: facts.customer.username ?? '',
          senderName: facts.customer.senderName ?? facts.customer.fullName,
        },
        ...(approved ? {} : { reason: facts.reason ?? '' }),
      };
      H2hCallbackSchema.parse(body);
      return body;
    }
    case 'infrastructure': {
      const body = {
        CustomerFullName: facts.customer.fullName,
        Amount: amount,
        CustomerMemberId: facts.echo.CustomerMemberId ?? facts.customer.username ?? '',
        RequestId: facts.externalId,
        SecurityKey: facts.echo.SecurityKey ?? '',
        Status: approved,
        Message: CALLBACK_STATUS.infrastructure[facts.outcome],
        OperationGuidBack: facts.echo.OperationGuid ?? '',
      };
      InfrastructureCallbackSchema.parse(body);
      return body;
    }
    case 'md5': {
      const status = CALLBACK_STATUS.md5[facts.outcome];
      const body = {
        transactionId: facts.externalId,
        amount,
        status,
        type: facts.type,
        signature: md5CallbackSignature(facts.externalId, status, JSON.stringify(amount), facts.type, apiSecret()),
      };
      Md5CallbackSchema.parse(body);
      return body;
    }
  }
}
