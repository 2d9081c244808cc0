import type {
  PanelCallbackDetail,
  PanelProvider,
  PanelTransaction,
  PanelTransactionDetail,
} from '@transfergate/contracts';
import { redactCallbackDetail } from '../callbacks/callback-redaction.js';

/**
 * What a merchant user sees: its own records without the operators' internals (the receiving
 * account pool, the assignee, operator ids and IPs in histories and resends, infrastructures).
 */
export function portalTransaction(transaction: PanelTransaction) {
  const {
    bankAccountId: _bankAccountId,
    bankAccount: _bankAccount,
    assignee: _assignee,
    infrastructureId: _infrastructureId,
    merchantId: _merchantId,
    ...shown
  } = transaction;
  return shown;
}

/** The history as event types and times only (no operator, IP or event data). */
export function portalTransactionDetail(detail: PanelTransactionDetail, callbacks: PanelCallbackDetail[]) {
  return {
    ...portalTransaction(detail),
    history: detail.history.map((event) => ({ type: event.type, at: event.createdAt })),
    callbacks: callbacks.map(portalCallback),
  };
}

/** A callback with its attempts; signatures in the body and echoes blanked; who resent it is not shown. */
export function portalCallback(detail: PanelCallbackDetail) {
  const { infrastructureId: _infrastructureId, ...redacted } = redactCallbackDetail(detail);
  return {
    ...redacted,
    attempts: redacted.attempts.map(({ requestedBy: _requestedBy, ...attempt }) => attempt),
  };
}

export function portalProvider(provider: PanelProvider) {
  return {
    id: provider.id,
    number: provider.number,
    name: provider.name,
    apiKey: provider.apiKey,
    apiAllowedIps: provider.apiAllowedIps,
    active: provider.active,
    sandbox: provider.sandbox,
    previousSecretValidUntil: provider.previousSecretValidUntil,
    callbackDeposit: provider.callbackDeposit,
    callbackWithdrawal: provider.callbackWithdrawal,
    updatedAt: provider.updatedAt,
  };
}
