import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../format/time';
import type { PanelTransaction } from './types';
import { OPEN_STATES } from './types';

const MINUTE_MS = 60_000;

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** `12 dk`, `3 sa 5 dk`, `2 gün 4 sa`: coarse enough to read at a glance. */
export function spanText(ms: number, translate: Translate): string {
  const minutes = Math.max(0, Math.floor(Math.abs(ms) / MINUTE_MS));
  if (minutes < 60) return translate('tg.queue.minutes', { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return translate('tg.queue.hours', { h: hours, m: minutes % 60 });
  return translate('tg.queue.days', { d: Math.floor(hours / 24), h: hours % 24 });
}

/**
 * The queue's "time" column: an open deposit's time left until it expires (red when it is close),
 * how long ago an expired one ran out, otherwise the age of the request. Re-rendered by each poll.
 */
export function TimeLeft({ record, now = Date.now() }: { record: PanelTransaction; now?: number }) {
  const translate = useTranslate();
  const open = OPEN_STATES[record.type].includes(record.state);
  const expiresAtMs = record.expiresAt ? Date.parse(record.expiresAt) : Number.NaN;
  if (open && record.type === 'deposit' && Number.isFinite(expiresAtMs)) {
    const leftMs = expiresAtMs - now;
    if (leftMs > 0) {
      return (
        <span
          data-testid="time-left"
          title={formatDateTime(record.createdAt)}
          style={{ whiteSpace: 'nowrap', color: leftMs < 5 * MINUTE_MS ? '#c62828' : undefined }}
        >
          {translate('tg.queue.expires_in', { time: spanText(leftMs, translate) })}
        </span>
      );
    }
  }
  if (record.state === 'expired' && Number.isFinite(expiresAtMs)) {
    return (
      <span
        data-testid="time-left"
        title={formatDateTime(record.createdAt)}
        style={{ whiteSpace: 'nowrap', color: '#c62828' }}
      >
        {translate('tg.queue.expired_ago', { time: spanText(now - expiresAtMs, translate) })}
      </span>
    );
  }
  return (
    <span data-testid="time-left" title={formatDateTime(record.createdAt)} style={{ whiteSpace: 'nowrap' }}>
      {translate('tg.queue.age', { time: spanText(now - Date.parse(record.createdAt), translate) })}
    </span>
  );
}
