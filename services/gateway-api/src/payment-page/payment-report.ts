import { PAYMENT_REPORT_BANK_MAX_CHARS } from '@transfergate/contracts';

/** The report form's body is a few short `name=value` lines (text/plain): anything beyond is ignored. */
export const MAX_REPORT_LINES = 8;
export const MAX_REPORT_LINE_CHARS = 200;
/** A time typed a little ahead of the server's clock is today's (clocks differ); beyond it, yesterday's. */
export const REPORT_CLOCK_SKEW_MS = 10 * 60_000;
/** Türkiye's fixed offset (UTC+3, no daylight saving): the customer types a Turkish wall-clock time. */
const TURKEY_OFFSET_MS = 3 * 3_600_000;

/** What the customer said with "I have sent the transfer": both optional. */
export interface PaymentReportFields {
  senderBank?: string;
  transferredAt?: string;
}

/**
 * The report form's fields from its text/plain body (`bank=<EFT code>` and `sentAt=HH:MM`, one per
 * line). The bank is named from the page's bank choices (a code not among them, or "other", names
 * none); the time is
 * a Turkish wall-clock time today, or yesterday when it is ahead of now, as an ISO instant with
 * +03:00. A missing or malformed field is left out: the report itself never fails on them.
 */
export function parsePaymentReport(
  body: unknown,
  banks: ReadonlyArray<{ code: string; name: string }>,
  now: Date,
): PaymentReportFields {
  if (typeof body !== 'string' || body === '') return {};
  const fields = new Map<string, string>();
  for (const line of body.split(/\r?\n/, MAX_REPORT_LINES)) {
    if (line.length > MAX_REPORT_LINE_CHARS) continue;
    const at = line.indexOf('=');
    if (at > 0) fields.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const out: PaymentReportFields = {};
  const code = fields.get('bank');
  const bank = code ? banks.find((b) => b.code === code) : undefined;
  if (bank) out.senderBank = bank.name.slice(0, PAYMENT_REPORT_BANK_MAX_CHARS);
  const time = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(fields.get('sentAt') ?? '');
  if (time) out.transferredAt = turkishTimeBefore(Number(time[1]), Number(time[2]), now);
  return out;
}

/** HH:MM Turkish time on today's Turkish date, or the day before when that is ahead of `now`. */
function turkishTimeBefore(hours: number, minutes: number, now: Date): string {
  const turkishNow = new Date(now.getTime() + TURKEY_OFFSET_MS);
  const candidate = Date.UTC(
    turkishNow.getUTCFullYear(),
    turkishNow.getUTCMonth(),
    turkishNow.getUTCDate(),
    hours,
    minutes,
  );
  const day = new Date(
    candidate - TURKEY_OFFSET_MS > now.getTime() + REPORT_CLOCK_SKEW_MS ? candidate - 86_400_000 : candidate,
  );
  const date = day.toISOString().slice(0, 10);
  return `${date}T${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:00+03:00`;
}
