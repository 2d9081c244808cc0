import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatTry } from '../../format/money';
import { formatDateTime } from '../../format/time';
import { useRecordName, type RecordKind } from './record-names';

const STATE_COLORS: Record<string, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  approved: 'success',
  rejected: 'error',
  expired: 'default',
  awaiting_payment: 'info',
  payment_reported: 'warning',
  pending: 'info',
  processing: 'warning',
  held: 'error',
};

export function StateChip({ state }: { state: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={STATE_COLORS[state] ?? 'default'}
      label={translate(`tg.tx.state.${state}`, { _: state })}
      data-state={state}
    />
  );
}

export function Money({ amount }: { amount: number | string }) {
  return <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{formatTry(amount)}</span>;
}

export function DateTime({ iso }: { iso: string | undefined | null }) {
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} style={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(iso)}
    </time>
  );
}

/** An operator, merchant or provider id as its name (see useRecordName). */
export function RecordName({ kind, id }: { kind: RecordKind; id: string | undefined }) {
  const nameOf = useRecordName(kind);
  return <span>{nameOf(id) ?? '—'}</span>;
}

/** One line, cut with an ellipsis past `maxWidth` px; the whole text in the tooltip. */
export function Clipped({ text, maxWidth }: { text: string; maxWidth: number }) {
  return (
    <span
      title={text}
      style={{
        display: 'inline-block',
        maxWidth,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
        verticalAlign: 'bottom',
      }}
    >
      {text}
    </span>
  );
}
