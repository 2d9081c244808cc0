import { z } from 'zod';
import { CSV_PRESET_NAMES, CsvMappingSchema, type CsvPreset } from './csv-mapping.js';
import { StatementFormatSchema } from './events.js';

/** Query string of POST /panel/reconciliation/accounts/:id/statements (the body is the file's raw bytes). */
export const StatementUploadQuerySchema = z
  .object({
    format: StatementFormatSchema,
    fileName: z.string().trim().min(1).max(200).default('statement'),
    preset: z.enum(CSV_PRESET_NAMES as [CsvPreset, ...CsvPreset[]]).optional(),
    /** A CsvMapping as JSON text (URL-encoded); wins over a preset. */
    mapping: z
      .string()
      .max(4_000)
      .transform((text, ctx) => {
        try {
          return CsvMappingSchema.parse(JSON.parse(text));
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            message: `is not a CSV mapping: ${error instanceof Error ? error.message : 'invalid'}`,
          });
          return z.NEVER;
        }
      })
      .optional(),
  })
  .strict();

export const StatementLineListQuerySchema = z
  .object({
    bankAccountId: z.string().max(100).optional(),
    state: z.enum(['queued', 'matched', 'dismissed']).optional(),
    direction: z.enum(['credit', 'debit']).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();

export const StatementLineMatchRequestSchema = z
  .object({
    transactionId: z.uuid(),
    amount: z.enum(['requested', 'received']).default('requested'),
  })
  .strict();

export const StatementLineDismissRequestSchema = z.object({ reason: z.string().trim().min(1).max(500) }).strict();

export const ReconciliationSettingsRequestSchema = z
  .object({ infrastructureId: z.string().min(1).max(100), autoApprove: z.boolean() })
  .strict();

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD');

/** ?from=&to= (Turkish days, both included; at most 366 days). */
export const ReconciliationRangeQuerySchema = z
  .object({ from: Day, to: Day })
  .strict()
  .refine((r) => r.from <= r.to, { message: 'from must not be after to' })
  .refine((r) => Date.parse(r.to) - Date.parse(r.from) <= 366 * 86_400_000, { message: 'at most 366 days' });

export const PAYMENT_FILE_FIELDS = [
  'iban',
  'name',
  'amount',
  'description',
  'number',
  'externalId',
  'approvedAt',
] as const;

/** How a bank wants its bulk payment (EFT/FAST) file: separator, decimal mark and the columns in order. */
export const PaymentFileLayoutSchema = z
  .object({
    delimiter: z.enum([';', ',', '\t', '|']).default(';'),
    decimalMark: z.enum([',', '.']).default(','),
    header: z.boolean().default(true),
    columns: z
      .array(z.object({ title: z.string().trim().min(1).max(60), field: z.enum(PAYMENT_FILE_FIELDS) }).strict())
      .min(1)
      .max(20)
      .default([
        { title: 'IBAN', field: 'iban' },
        { title: 'Alıcı Adı Soyadı', field: 'name' },
        { title: 'Tutar', field: 'amount' },
        { title: 'Açıklama', field: 'description' },
      ]),
  })
  .strict();
export type PaymentFileLayout = z.infer<typeof PaymentFileLayoutSchema>;

/** ?from=&to=[&bankCode=][&layout=<PaymentFileLayout as JSON>]: approved withdrawals of Turkish days [from, to]. */
export const PaymentFileQuerySchema = z
  .object({
    from: Day,
    to: Day,
    /** The 5-digit bank code of the beneficiaries' IBANs (characters 5-9): one file per bank. */
    bankCode: z
      .string()
      .regex(/^\d{5}$/)
      .optional(),
    layout: z
      .string()
      .max(4_000)
      .transform((text, ctx) => {
        try {
          return PaymentFileLayoutSchema.parse(JSON.parse(text));
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            message: `is not a payment file layout: ${error instanceof Error ? error.message : 'invalid'}`,
          });
          return z.NEVER;
        }
      })
      .optional(),
  })
  .strict()
  .refine((r) => r.from <= r.to, { message: 'from must not be after to' })
  .refine((r) => Date.parse(r.to) - Date.parse(r.from) <= 31 * 86_400_000, { message: 'at most 31 days' });
