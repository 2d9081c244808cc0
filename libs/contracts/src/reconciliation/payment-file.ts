import { Query } from '@nestjs/cqrs';
import type { PaymentFileLayout } from './panel.js';

/** An approved withdrawal as a payment file row needs it. */
export interface PayableWithdrawal {
  number: number;
  externalId: string;
  iban: string;
  name: string;
  amountKurus: string;
  approvedAt: string;
}

export const MAX_PAYMENT_FILE_ROWS = 10_000;

export class ListApprovedWithdrawalsQuery extends Query<PayableWithdrawal[]> {
  constructor(readonly input: { from: string; to: string; bankCode?: string }) {
    super();
  }
}

/**
 * A bulk payment file in the bank's layout. Amounts exact from kuruş with the layout's decimal mark;
 * the description carries `TG-<number>` so the debit line of the statement names the withdrawal.
 * Cells are quoted (RFC 4180) when they hold the separator, a quote or a line break, and a cell a
 * spreadsheet would evaluate (= + - @) gets a leading `'`.
 */
export function paymentFileCsv(rows: readonly PayableWithdrawal[], layout: PaymentFileLayout): string {
  const cell = (value: string) => {
    let text = /^[=+\-@]/.test(value) ? `'${value}` : value;
    text = text.replace(/[\r\n]+/g, ' ');
    return text.includes(layout.delimiter) || text.includes('"') ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const amount = (kurus: string) => {
    const k = BigInt(kurus);
    return `${k / 100n}${layout.decimalMark}${(k % 100n).toString().padStart(2, '0')}`;
  };
  const value = (w: PayableWithdrawal, field: PaymentFileLayout['columns'][number]['field']): string => {
    switch (field) {
      case 'iban':
        return w.iban;
      case 'name':
        return w.name;
      case 'amount':
        return amount(w.amountKurus);
      case 'description':
        return `TG-${w.number} ${w.externalId}`;
      case 'number':
        return String(w.number);
      case 'externalId':
        return w.externalId;
      case 'approvedAt':
        return w.approvedAt;
    }
  };
  const lines = layout.header ? [layout.columns.map((c) => cell(c.title)).join(layout.delimiter)] : [];
  for (const w of rows) lines.push(layout.columns.map((c) => cell(value(w, c.field))).join(layout.delimiter));
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}
