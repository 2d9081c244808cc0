import { Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { formatTry } from '../../../format/money';
import { formatDateTime } from '../../../format/time';
import { groupIban } from './iban';

/** Field props react-admin reads from a column (label, sortable) besides the source. */
interface ColumnProps {
  source: string;
  label?: string;
  sortable?: boolean;
  sortBy?: string;
}

function valueAt(record: Record<string, unknown> | undefined, source: string): unknown {
  return source
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], record);
}

/** TRY with Turkish formatting; the panel API sends amounts as TRY numbers. */
export function MoneyField({ source }: ColumnProps) {
  const value = valueAt(useRecordContext(), source);
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {formatTry(value)}
    </Typography>
  );
}

/** An instant in the operator's time zone. */
export function DateTimeField({ source }: ColumnProps) {
  const value = valueAt(useRecordContext(), source);
  if (typeof value !== 'string' || !value) return null;
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(value)}
    </Typography>
  );
}

/** IBAN grouped by four, monospaced so columns line up. */
export function IbanField({ source }: ColumnProps) {
  const value = valueAt(useRecordContext(), source);
  if (typeof value !== 'string') return null;
  return (
    <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
      {groupIban(value)}
    </Typography>
  );
}

/** Percent with the UI language's decimal sign. */
export function PercentField({ source }: ColumnProps) {
  const value = valueAt(useRecordContext(), source);
  if (typeof value !== 'number') return null;
  return (
    <Typography component="span" variant="body2">
      {new Intl.NumberFormat('tr-TR', { maximumFractionDigits: 2 }).format(value)} %
    </Typography>
  );
}

/** A short list of strings (IP allow-lists, permissions) or a dash. */
export function ListTextField({ source, max = 4, emptyText }: ColumnProps & { max?: number; emptyText?: string }) {
  const translate = useTranslate();
  const value = valueAt(useRecordContext(), source);
  if (!Array.isArray(value)) return null;
  if (value.length === 0) return <Typography variant="body2">{emptyText ? translate(emptyText) : '—'}</Typography>;
  const shown = value.slice(0, max).join(', ');
  const more = value.length > max ? ` ${translate('records.common.and_more', { count: value.length - max })}` : '';
  return (
    <Typography component="span" variant="body2">
      {shown}
      {more}
    </Typography>
  );
}
