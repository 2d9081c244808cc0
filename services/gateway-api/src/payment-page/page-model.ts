import { turkishBankCode, type BankSummary, type PaymentPageTransaction } from '@transfergate/contracts';
import { effectiveState, secondsLeft, type DepositState } from './deposit-status.js';
import { amountForCopy, formatTry, groupIban, paymentReference, plainIban } from './format.js';

/** How a transfer from the customer's bank reaches the receiving account (drives the hint shown). */
export type TransferKind = 'same' | 'fast' | 'eft';

export interface BankChoice {
  code: string;
  name: string;
  kind: TransferKind;
}

/** Everything the payment page shows, already formatted; the view only lays it out. */
export interface PaymentPageModel {
  token: string;
  state: DepositState;
  secondsLeft: number;
  customerName: string;
  amountText: string;
  amountCopy: string;
  reference: string;
  account: { bank: string; holderName: string; ibanGrouped: string; ibanCopy: string; fast: boolean };
  banks: BankChoice[];
  /** Kind of transfer from a bank that is not in the list. */
  otherKind: TransferKind;
  /** Who the customer pays; absent only if the merchant record is gone. */
  merchantName?: string;
  /** The merchant's page to go back to (checked against the integration's origins at request time). */
  returnUrl?: string;
}

export function buildPageModel(
  view: PaymentPageTransaction & { bankAccount: NonNullable<PaymentPageTransaction['bankAccount']> },
  token: string,
  banks: readonly BankSummary[],
  now: Date,
): PaymentPageModel {
  const account = view.bankAccount;
  const receivingCode = turkishBankCode(account.iban);
  // Between banks the account's FAST flag decides: FAST arrives 24/7, plain EFT in banking hours.
  const otherKind: TransferKind = account.fast ? 'fast' : 'eft';
  const amount = BigInt(view.amountKurus);
  return {
    token,
    state: effectiveState(view, now),
    secondsLeft: secondsLeft(view, now),
    customerName: view.customer.fullName,
    amountText: formatTry(amount),
    amountCopy: amountForCopy(amount),
    reference: paymentReference(view.number),
    account: {
      bank: account.bank,
      holderName: account.holderName,
      ibanGrouped: groupIban(account.iban),
      ibanCopy: plainIban(account.iban),
      fast: account.fast,
    },
    banks: bankChoices(banks, { code: receivingCode, name: account.bank }, otherKind),
    otherKind,
    ...(view.merchantName ? { merchantName: view.merchantName } : {}),
    ...(view.returnUrl ? { returnUrl: view.returnUrl } : {}),
  };
}

/**
 * The banks to pick from. The receiving account's own bank is always offered, even when the list
 * (banks with an active account now) no longer has it, because that is the instant option.
 */
function bankChoices(
  banks: readonly BankSummary[],
  receiving: { code: string; name: string },
  otherKind: TransferKind,
): BankChoice[] {
  const listed = banks.some((bank) => bank.code === receiving.code) ? banks : [...banks, receiving];
  return listed
    .map((bank): BankChoice => ({
      code: bank.code,
      name: bank.name,
      kind: bank.code === receiving.code ? 'same' : otherKind,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, 'tr'));
}
