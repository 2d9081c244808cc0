import { z } from 'zod';
import { KurusStringSchema } from '../money/kurus.js';

/**
 * Double-entry postings, in the spirit of TigerBeetle: a transfer moves `amountKurus` from a debit
 * account to a credit account. Two-phase: a pending set is later posted or voided, whole.
 * They live on the merchant's ledger stream (`merchant-ledger-<merchantId>`), whose version
 * serialises every change to that merchant's balance (the overdraft check needs it).
 */
export const TransferSchema = z.object({
  transferId: z.string(),
  debitAccount: z.string(),
  creditAccount: z.string(),
  amountKurus: KurusStringSchema,
});
export type Transfer = z.infer<typeof TransferSchema>;

/** Single-phase posting (deposit approval). */
export const TransfersPostedV1 = z.object({
  transactionId: z.uuid(),
  merchantId: z.string(),
  transfers: z.array(TransferSchema).min(1).max(8),
});
/** Reservation (withdrawal request): pending debits on the merchant balance. */
export const TransfersReservedV1 = TransfersPostedV1;
/** Posting of an earlier reservation (withdrawal approval); amounts may differ after update-amount. */
export const ReservationPostedV1 = TransfersPostedV1;
/** Void of an earlier reservation (withdrawal rejection). */
export const ReservationVoidedV1 = z.object({ transactionId: z.uuid(), merchantId: z.string() });
/** Re-reservation after an amount change (old pending set voided, new one pending). */
export const ReservationChangedV1 = TransfersPostedV1;

export const ACCOUNTS = {
  merchant: (merchantId: string) => `merchant:${merchantId}`,
  bank: (bankAccountId: string) => `bank:${bankAccountId}`,
  fees: 'fees',
  payoutClearing: 'payout-clearing',
} as const;
