import { z } from 'zod';

/**
 * How a bank's CSV/XLSX export maps to statement lines: which header names hold which field, the
 * separator, the decimal mark and the date order. Header names are compared case- and
 * Turkish-letter-insensitively; the header row is found within the first rows (banks print the
 * account and period above it). Either one signed `amount` column or a `debit` + `credit` pair.
 */
const header = z.string().trim().min(1).max(100);

export const CsvMappingSchema = z
  .object({
    delimiter: z.enum([';', ',', '\t', '|']).default(';'),
    decimalMark: z.enum([',', '.']).default(','),
    dateOrder: z.enum(['DMY', 'YMD']).default('DMY'),
    columns: z
      .object({
        date: header,
        time: header.optional(),
        valueDate: header.optional(),
        description: header,
        amount: header.optional(),
        debit: header.optional(),
        credit: header.optional(),
        reference: header.optional(),
        counterpartyName: header.optional(),
        counterpartyIban: header.optional(),
        balance: header.optional(),
      })
      .strict()
      .refine((c) => Boolean(c.amount) !== Boolean(c.debit && c.credit), {
        message: 'map either one signed amount column or both debit and credit columns',
      }),
  })
  .strict();
export type CsvMapping = z.infer<typeof CsvMappingSchema>;

/** Presets for common Turkish bank exports (layouts as those banks' internet branches export them). */
export const CSV_PRESETS = {
  /** Garanti BBVA style: one signed amount, `Tarih;Açıklama;Etiket;Tutar;Bakiye;Dekont No`. */
  'garanti-bbva': {
    delimiter: ';',
    decimalMark: ',',
    dateOrder: 'DMY',
    columns: {
      date: 'Tarih',
      description: 'Açıklama',
      amount: 'Tutar',
      balance: 'Bakiye',
      reference: 'Dekont No',
    },
  },
  /** İş Bankası style: separate Borç/Alacak columns, time, sender name and IBAN columns. */
  'is-bankasi': {
    delimiter: ';',
    decimalMark: ',',
    dateOrder: 'DMY',
    columns: {
      date: 'İşlem Tarihi',
      time: 'Saat',
      valueDate: 'Valör',
      description: 'Açıklama',
      counterpartyName: 'Gönderen / Alıcı',
      counterpartyIban: 'Karşı IBAN',
      debit: 'Borç',
      credit: 'Alacak',
      balance: 'Bakiye',
      reference: 'İşlem No',
    },
  },
} as const satisfies Record<string, z.input<typeof CsvMappingSchema>>;
export type CsvPreset = keyof typeof CSV_PRESETS;
export const CSV_PRESET_NAMES = Object.keys(CSV_PRESETS) as CsvPreset[];
