import { z } from 'zod';
import { AmountSchema, NonNegativeAmountSchema, PercentSchema } from '@transfergate/contracts';

/**
 * The declarative provisioning file (TRANSFERGATE_BOOTSTRAP / --bootstrap). Unknown keys are kept
 * out, not refused, so files written for later versions still load.
 */
// Same rules as the panel's record bodies: one definition of a percent and of a zero-able amount.
const percent = PercentSchema;
const nonNegativeAmount = NonNegativeAmountSchema;

export const BootstrapFileSchema = z.object({
  operators: z
    .array(
      z.object({
        username: z.string().min(3).max(64),
        password: z.string().min(10).max(256),
        role: z.string().min(1).default('admin'),
        active: z.boolean().default(true),
      }),
    )
    .default([]),
  infrastructures: z
    .array(
      z.object({
        name: z.string().min(1),
        slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/),
        apiForm: z.enum(['merchant', 'h2h', 'infrastructure']),
        callbackFormat: z.enum(['merchant', 'h2h', 'infrastructure', 'md5']),
        callback_deposit: z.url(),
        callback_withdrawal: z.url(),
        webhookAllowedIps: z.array(z.string()).default([]),
      }),
    )
    .default([]),
  merchants: z
    .array(
      z.object({
        name: z.string().min(1),
        active: z.boolean().default(true),
        minAmount: AmountSchema,
        maxAmount: AmountSchema,
        depositCommissionPercent: percent.default(0),
        withdrawalCommissionPercent: percent.default(0),
        overdraftLimit: nonNegativeAmount.default(0n),
        providers: z
          .array(
            z.object({
              name: z.string().min(1),
              infrastructure: z.string().min(1),
              apiKey: z.string().min(8),
              apiSecret: z.string().min(8),
              apiAllowedIps: z.array(z.string()).default([]),
              active: z.boolean().default(true),
              sandbox: z.boolean().default(false),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
  bankAccounts: z
    .array(
      z.object({
        bank: z.string().min(1),
        iban: z.string().min(1),
        holderName: z.string().min(1),
        fast: z.boolean().default(true),
        minAmount: AmountSchema,
        maxAmount: AmountSchema,
        dailyLimit: AmountSchema,
        active: z.boolean().default(true),
      }),
    )
    .default([]),
});

export type BootstrapFile = z.infer<typeof BootstrapFileSchema>;
