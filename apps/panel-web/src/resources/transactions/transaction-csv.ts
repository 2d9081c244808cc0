import { csvLira, downloadCsv, toCsv } from '../../api/csv';
import { csvTurkishTime } from '../../format/turkish-time';
import { paymentReference } from './approve-checks';
import type { PanelTransaction } from './types';

type Translate = (key: string, options?: Record<string, unknown>) => string;
type NameOf = (id: string | undefined) => string | undefined;

/**
 * The queue's export: the rows of the current filter and order (all pages, up to the data
 * provider's export bound), columns in the UI's language, amounts as `1250,50`, times in Turkish local time
 * (`07.12.2026 20:58:19`), operators by name.
 */
export function transactionCsvExporter(
  type: PanelTransaction['type'],
  translate: Translate,
  names: { merchant: NameOf; operator: NameOf },
) {
  return (records: PanelTransaction[]) => {
    const header = [
      translate('tg.tx.fields.number'),
      translate('tg.check.reference'),
      translate('tg.tx.fields.state'),
      translate('tg.tx.fields.amount'),
      translate('tg.tx.fields.fee'),
      translate('tg.tx.fields.customer'),
      translate('tg.tx.fields.external_id'),
      translate('tg.tx.fields.merchant'),
      type === 'withdrawal' ? translate('tg.tx.fields.iban') : translate('tg.tx.fields.bank_account'),
      translate('tg.tx.fields.assignee'),
      translate('tg.tx.fields.reason'),
      translate('tg.tx.fields.created_at'),
      translate('tg.tx.fields.expires_at'),
    ];
    const rows = records.map((t) => [
      t.number,
      type === 'deposit' ? paymentReference(t.number) : '',
      translate(`tg.tx.state.${t.state}`),
      csvLira(t.amount),
      csvLira(t.fee),
      t.customer.fullName,
      t.externalId,
      names.merchant(t.merchantId) ?? t.merchantId,
      type === 'withdrawal' ? (t.iban ?? '') : t.bankAccount ? `${t.bankAccount.bank} ${t.bankAccount.iban}` : '',
      t.assignee ? (names.operator(t.assignee) ?? t.assignee) : '',
      t.reason ?? '',
      csvTurkishTime(t.createdAt),
      csvTurkishTime(t.expiresAt),
    ]);
    downloadCsv(toCsv(header, rows), type === 'deposit' ? 'yatirimlar' : 'cekimler');
  };
}
