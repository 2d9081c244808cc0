import { z } from 'zod';
import { AmountSchema } from '../money/kurus.js';
import { DomainError } from '../errors/domain-error.js';
import { BankCodeSchema, rawText, requestText } from './text.js';

/** H2H API (host-to-host): POST /deposit/bank and /withdrawal/bank, mandatory hash. */

const idText = requestText(128);
const nameText = requestText(200);

/**
 * Optional customer fields an H2H integrator may send, carried into the callback's `metadata`
 * (`userID`, `username`, `senderName`). The schema documents one spelling of each; the other
 * spellings integrators use are accepted too (see h2hCustomerFields), and must agree when several
 * are sent.
 */
const H2H_CUSTOMER_SPELLINGS = {
  userId: ['user_id', 'userId', 'userID', 'UserId', 'UserID'],
  username: ['username', 'user_name', 'userName', 'UserName'],
  senderName: ['sender_name', 'senderName', 'SenderName'],
  nationalId: ['tckn', 'national_id', 'nationalId'],
  email: ['email'],
  phone: ['phone'],
} as const;
const H2H_CUSTOMER_TEXT = {
  userId: idText,
  username: idText,
  senderName: nameText,
  nationalId: idText,
  email: nameText,
  phone: idText,
} as const;

const customerShape = {
  user_id: idText.optional().describe('Your id of the customer; the callback sends it as metadata.userID.'),
  username: idText.optional().describe("The customer's username; the callback sends it as metadata.username."),
  sender_name: nameText
    .optional()
    .describe('Who sends the transfer when it is not `fullname`; the callback sends it as metadata.senderName.'),
  tckn: idText.optional().describe("The customer's national id (T.C. Kimlik No); compared with risk blocklists only."),
  email: nameText.optional().describe("The customer's e-mail address; compared with risk blocklists only."),
  phone: idText.optional().describe("The customer's phone number; compared with risk blocklists only."),
};

/** The optional customer fields of an H2H body (h2hCustomerFields). */
export interface H2hCustomerFields {
  userId?: string;
  username?: string;
  senderName?: string;
  nationalId?: string;
  email?: string;
  phone?: string;
}

/** The customer fields of an H2H body, whichever spelling was used; absent ones are left out. */
export function h2hCustomerFields(body: Record<string, unknown>): H2hCustomerFields {
  const out: H2hCustomerFields = {};
  for (const field of Object.keys(H2H_CUSTOMER_SPELLINGS) as (keyof typeof H2H_CUSTOMER_SPELLINGS)[]) {
    const values = new Map<string, string>();
    for (const spelling of H2H_CUSTOMER_SPELLINGS[field]) {
      if (body[spelling] === undefined || body[spelling] === null || body[spelling] === '') continue;
      const parsed = H2H_CUSTOMER_TEXT[field].safeParse(body[spelling]);
      if (!parsed.success) {
        throw new DomainError('validation_failed', `${spelling}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      }
      values.set(spelling, parsed.data);
    }
    if (new Set(values.values()).size > 1) {
      throw new DomainError('validation_failed', `${[...values.keys()].join(' and ')} differ`);
    }
    const [value] = values.values();
    if (value !== undefined) out[field] = value;
  }
  return out;
}

export const H2hDepositRequestSchema = z.object({
  apikey: rawText(256),
  transaction_id: idText,
  hash: rawText(256),
  amount: AmountSchema,
  fullname: nameText,
  callback_url: rawText(2048, 0).optional(),
  bank_code: BankCodeSchema.optional(),
  ...customerShape,
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
  ...customerShape,
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
