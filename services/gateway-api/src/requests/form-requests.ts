import {
  merchantCustomerName,
  type H2hCustomerFields,
  type H2hDepositRequest,
  type H2hWithdrawalRequest,
  type InfrastructureDepositRequest,
  type InfrastructureWithdrawalRequest,
  type MerchantDepositRequest,
  type MerchantWithdrawalRequest,
} from '@transfergate/contracts';
import type { RequestInput } from './transaction-requests.service.js';

/**
 * What each API form's parsed request asks for, as the one request the ledger takes: the external
 * id, the amount, the customer, the fields fingerprinted for idempotency, what the callback echoes.
 * Pure: the controllers parse, authenticate and check the return URL, then call these.
 */

/** Where the request came from: the caller's IP and the HTTP request's id. */
export interface RequestSource {
  ip: string;
  requestId: string;
}

type H2hCustomer = H2hCustomerFields;
type MerchantDepositFields = Pick<
  MerchantDepositRequest,
  'transactionId' | 'amount' | 'name' | 'surname' | 'username' | 'callback' | 'bankCode'
>;
type MerchantWithdrawalFields = Pick<
  MerchantWithdrawalRequest,
  'transactionId' | 'amount' | 'name' | 'surname' | 'username' | 'callback' | 'iban' | 'fullname'
>;

/** An IBAN as the ledger checks it: no whitespace, upper case. */
export function normalizedIban(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** H2H deposit; `customer` is h2hCustomerFields of the raw body (absent fields left out). */
export function h2hDepositRequest(
  input: H2hDepositRequest,
  customer: H2hCustomer,
  source: RequestSource,
): RequestInput {
  return {
    form: 'h2h',
    externalId: input.transaction_id,
    amountKurus: input.amount,
    customer: { fullName: input.fullname, ...customer },
    fingerprint: {
      transactionId: input.transaction_id,
      amountKurus: input.amount,
      fullname: input.fullname,
      callbackUrl: input.callback_url,
      // Only when sent: a request without them keeps the fingerprint it always had.
      ...customer,
    },
    ...(input.callback_url ? { callbackUrl: input.callback_url } : {}),
    ...(input.bank_code ? { preferredBankCode: input.bank_code } : {}),
    ip: source.ip,
    requestId: source.requestId,
  };
}

/** H2H withdrawal: the deposit's fields and the IBAN (fingerprinted by the request service). */
export function h2hWithdrawalRequest(
  input: H2hWithdrawalRequest,
  customer: H2hCustomer,
  source: RequestSource,
): RequestInput & { iban: string } {
  return {
    form: 'h2h',
    externalId: input.transaction_id,
    amountKurus: input.amount,
    customer: { fullName: input.fullname, ...customer },
    iban: normalizedIban(input.iban),
    fingerprint: {
      transactionId: input.transaction_id,
      amountKurus: input.amount,
      fullname: input.fullname,
      callbackUrl: input.callback_url,
      // Only when sent: a request without them keeps the fingerprint it always had.
      ...customer,
    },
    ...(input.callback_url ? { callbackUrl: input.callback_url } : {}),
    ip: source.ip,
    requestId: source.requestId,
  };
}

/** Merchant deposit; `returnUrl` already checked (return-url.ts). */
export function merchantDepositRequest(
  body: MerchantDepositFields,
  returnUrl: string | undefined,
  source: RequestSource,
): RequestInput {
  const fullName = merchantCustomerName(body);
  return {
    form: 'merchant',
    externalId: body.transactionId,
    amountKurus: body.amount,
    customer: { fullName, ...(body.username ? { username: body.username } : {}) },
    fingerprint: { transactionId: body.transactionId, amountKurus: body.amount, fullName, username: body.username },
    // `callback` is recorded, never called: callbacks go to the registered URL only (SSRF-safe).
    echo: body.callback ? { callback: body.callback } : {},
    ...(returnUrl ? { returnUrl } : {}),
    ...(body.bankCode ? { preferredBankCode: body.bankCode } : {}),
    ip: source.ip,
    requestId: source.requestId,
  };
}

export function merchantWithdrawalRequest(
  body: MerchantWithdrawalFields,
  source: RequestSource,
): RequestInput & { iban: string } {
  const fullName = merchantCustomerName(body);
  return {
    form: 'merchant',
    externalId: body.transactionId,
    amountKurus: body.amount,
    customer: { fullName, ...(body.username ? { username: body.username } : {}) },
    iban: normalizedIban(body.iban),
    fingerprint: { transactionId: body.transactionId, amountKurus: body.amount, fullName },
    echo: body.callback ? { callback: body.callback } : {},
    ip: source.ip,
    requestId: source.requestId,
  };
}

/** Infrastructure deposit; `returnUrl` already checked (return-url.ts). */
export function infrastructureDepositRequest(
  input: InfrastructureDepositRequest,
  returnUrl: string | undefined,
  source: RequestSource,
): RequestInput {
  const fullName = input.CustomerFullName ?? input.CustomerUsername!;
  return {
    form: 'infrastructure',
    externalId: input.RequestId,
    amountKurus: input.Amount,
    customer: {
      fullName,
      ...(input.CustomerUsername ? { username: input.CustomerUsername } : {}),
      ...(input.CustomerMemberId ? { userId: input.CustomerMemberId } : {}),
    },
    fingerprint: {
      requestId: input.RequestId,
      amountKurus: input.Amount,
      fullName,
      operationGuid: input.OperationGuid,
    },
    echo: infrastructureEcho(input),
    ...(returnUrl ? { returnUrl } : {}),
    ...(input.BankCode ? { preferredBankCode: input.BankCode } : {}),
    ip: source.ip,
    requestId: source.requestId,
  };
}

export function infrastructureWithdrawalRequest(
  input: InfrastructureWithdrawalRequest,
  source: RequestSource,
): RequestInput & { iban: string } {
  return {
    form: 'infrastructure',
    externalId: input.RequestId,
    amountKurus: input.Amount,
    customer: {
      fullName: input.CustomerFullName,
      ...(input.CustomerMemberId ? { userId: input.CustomerMemberId } : {}),
    },
    iban: normalizedIban(input.AccountNumber),
    fingerprint: {
      requestId: input.RequestId,
      amountKurus: input.Amount,
      fullName: input.CustomerFullName,
      operationGuid: input.OperationGuid,
    },
    echo: infrastructureEcho(input),
    ip: source.ip,
    requestId: source.requestId,
  };
}

/** What the Infrastructure callback echoes: the request's OperationGuid, SecurityKey and customer ids. */
function infrastructureEcho(input: {
  OperationGuid: string;
  SecurityKey: string;
  CustomerMemberId?: string;
  CustomerUsername?: string;
}) {
  return {
    OperationGuid: input.OperationGuid,
    SecurityKey: input.SecurityKey,
    ...(input.CustomerMemberId ? { CustomerMemberId: input.CustomerMemberId } : {}),
    ...(input.CustomerUsername ? { CustomerUsername: input.CustomerUsername } : {}),
  };
}
