import { z } from 'zod';
import { AmountSchema } from '../money/kurus.js';
import { BankCodeSchema, rawText, requestText } from './text.js';

/** H2H API (host-to-host): POST /deposit/bank and /withdrawal/bank, mandatory hash. */

const idText = requestText(128);
const nameText = requestText(200);

export const H2hDepositRequestSchema = z.object({
  apikey: rawText(256),
  transaction_id: idText,
  hash: rawText(256),
  amount: AmountSchema,
  fullname: nameText,
  callback_url: rawText(2048, 0).optional(),
  bank_code: BankCodeSchema.optional(),
});
export type H2hDepositRequest = z.infer<typeof H2hDepositRequestSchema>;

export const H2hDepositResponseSchema = z.object({
  status: z.boolean(),
  code: z.number().int(),
  account_name: z.string(),
  account_iban: z.string(),
  fast: z.boolean(),
  /** Equals the transaction id (the contract: "id: equals the transaction id"). */
  id: z.string(),
  transaction_id: z.string(),
  message: z.string(),
});
export type H2hDepositResponse = z.infer<typeof H2hDepositResponseSchema>;

export const H2hWithdrawalRequestSchema = z.object({
  apikey: rawText(256),
  transaction_id: idText,
  hash: rawText(256),
  amount: AmountSchema,
  fullname: nameText,
  iban: rawText(64),
  callback_url: rawText(2048, 0).optional(),
});
export type H2hWithdrawalRequest = z.infer<typeof H2hWithdrawalRequestSchema>;

export const H2hWithdrawalResponseSchema = z.object({
  status: z.boolean(),
  code: z.number().int(),
  /** Internal integer withdrawal id. */
  id: z.number().int(),
  transaction_id: z.string(),
  message: z.string(),
});

/** Error body of the H2H form: the success shape's flags plus a stable machine code. */
export const H2hErrorResponseSchema = z.object({
  status: z.literal(false),
  code: z.number().int(),
  message: z.string(),
  errorCode: z.string(),
});
