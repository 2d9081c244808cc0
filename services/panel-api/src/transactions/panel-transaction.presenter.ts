import {
  kurusToNumber,
  type PanelTransaction,
  type PanelTransactionDetail,
  type PanelTransactionFound,
  type PanelTransactionRecord,
  type TransactionView,
} from '@transfergate/contracts';

const tryOf = (kurus: string) => kurusToNumber(BigInt(kurus));

/**
 * The panel's view of a transaction (PanelTransactionSchema): amounts as TRY numbers. Never shows
 * the payment token (the customer's bearer capability) or the form's echo fields.
 */
export function toPanelTransaction(view: TransactionView | PanelTransactionRecord): PanelTransaction {
  const bankAccount = 'bankAccount' in view ? view.bankAccount : undefined;
  const bankAccountId = bankAccount?.bankAccountId ?? ('bankAccountId' in view ? view.bankAccountId : undefined);
  return {
    id: view.transactionId,
    number: view.number,
    type: view.type,
    state: view.state,
    merchantId: view.merchantId,
    providerId: view.providerId,
    infrastructureId: view.infrastructureId,
    form: view.form,
    externalId: view.externalId,
    amount: tryOf(view.amountKurus),
    originalAmount: tryOf(view.originalAmountKurus),
    fee: tryOf(view.feeKurus),
    currency: 'TRY',
    customer: view.customer,
    ...(view.iban ? { iban: view.iban } : {}),
    ...(bankAccountId ? { bankAccountId } : {}),
    ...(bankAccount
      ? {
          bankAccount: {
            bankAccountId: bankAccount.bankAccountId,
            bank: bankAccount.bank,
            holderName: bankAccount.holderName,
            iban: bankAccount.iban,
            fast: bankAccount.fast,
          },
        }
      : {}),
    ...(view.expiresAt ? { expiresAt: view.expiresAt } : {}),
    ...(view.assignee ? { assignee: view.assignee } : {}),
    ...(view.reason ? { reason: view.reason } : {}),
    ...(view.pendingAmountChange
      ? {
          pendingAmountChange: {
            requestId: view.pendingAmountChange.requestId,
            fromAmount: tryOf(view.pendingAmountChange.fromKurus),
            toAmount: tryOf(view.pendingAmountChange.toKurus),
            requestedBy: view.pendingAmountChange.requestedBy,
            requestedAt: view.pendingAmountChange.requestedAt,
            ...(view.pendingAmountChange.lineId ? { lineId: view.pendingAmountChange.lineId } : {}),
          },
        }
      : {}),
    ...(view.paymentReport ? { paymentReport: view.paymentReport } : {}),
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}

/**
 * Event data the panel never shows: the payment token is the customer's bearer capability for the
 * payment page, and the request fingerprint is an idempotency digest of the merchant's request.
 */
const HIDDEN_EVENT_FIELDS: ReadonlySet<string> = new Set(['paymentToken', 'requestFingerprint']);

export function toPanelTransactionDetail(found: PanelTransactionFound): PanelTransactionDetail {
  const history = (found.history ?? []).map((event) => ({
    ...event,
    data: Object.fromEntries(Object.entries(event.data).filter(([field]) => !HIDDEN_EVENT_FIELDS.has(field))),
  }));
  const paid = found.paidBy;
  const paidBy = paid
    ? {
        lineId: paid.lineId,
        bankAccountId: paid.bankAccountId,
        bankReference: paid.bankReference,
        amount: tryOf(paid.amountKurus),
        bookedOn: paid.bookedOn,
      }
    : undefined;
  return { ...toPanelTransaction(found.view), history, ...(paidBy ? { paidBy } : {}) };
}
