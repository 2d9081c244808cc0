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
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}

export function toPanelTransactionDetail(found: PanelTransactionFound): PanelTransactionDetail {
  return { ...toPanelTransaction(found.view), history: found.history ?? [] };
}
