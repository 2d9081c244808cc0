import { CSV_PRESET_NAMES, STATEMENT_FORMAT_VALUES } from '@transfergate/contracts';
import {
  MATCH_REASON_CODES,
  STATEMENT_FORMAT_CODES,
  STATEMENT_LAYOUT_CODES,
  matchReasonParts,
} from '../../apps/panel-web/src/resources/reconciliation/match-reasons.js';
import { DISMISS_PRESETS, messages } from '../../apps/panel-web/src/resources/reconciliation/messages.js';
import {
  Matcher,
  type DepositForMatching,
  type LineForMatching,
} from '../../services/ledger/src/reconciliation/matching/matcher.js';
import { WithdrawalMatcher } from '../../services/ledger/src/reconciliation/matching/withdrawal-matcher.js';

/**
 * The reconciliation screen speaks the operator's language: every reason the matchers write is
 * read back into a code, and every code, statement format, layout and dismissal preset has an
 * English and a Turkish text (the Turkish one is not the English one copied).
 */
const T0 = Date.parse('2026-12-07T09:00:00Z');
const MIN = 60_000;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function deposit(n: number, lira: number, name: string, extra: Partial<DepositForMatching> = {}): DepositForMatching {
  return {
    transactionId: uuid(n),
    number: n,
    state: 'awaiting_payment',
    amountKurus: BigInt(lira * 100),
    names: [name],
    createdAtMs: T0,
    expiresAtMs: T0 + 60 * MIN,
    matched: false,
    ...extra,
  };
}

function line(n: number, lira: number, description: string, sender?: string, atMs = T0 + 10 * MIN): LineForMatching {
  return {
    lineId: uuid(1000 + n),
    direction: 'credit',
    amountKurus: BigInt(lira * 100),
    bookedOn: '2026-12-07',
    bookedAt: new Date(atMs).toISOString(),
    description,
    ...(sender ? { counterpartyName: sender } : {}),
  };
}

/** Every reason the deposit and withdrawal matchers write for a spread of lines. */
function reasonsWritten(): string[] {
  const matcher = new Matcher([
    deposit(101, 150, 'Ayşe Yılmaz'),
    deposit(102, 200, 'Mehmet Kaya', { state: 'approved' }),
    deposit(103, 300, 'Ali Veli', { state: 'expired' }),
    deposit(104, 400, 'Zeynep Demir'),
    deposit(105, 500, 'Can Er', { state: 'approved', matched: true }),
    deposit(106, 600, 'Elif Nur Şahin'),
    deposit(107, 700, 'Burak Tan'),
  ]);
  const lines = [
    line(1, 150, 'TG-101', 'AYSE YILMAZ'),
    line(2, 1200, 'tg 102', 'Mehmet Kaya'),
    line(3, 300, 'TG103', 'Hasan Öz', T0 + 90 * MIN),
    line(4, 400, 'ödeme Zeynep Demir'),
    line(5, 500, 'TG-105'),
    line(6, 600, 'TG-106', 'E. N. Şahin'),
    line(7, 700, 'TG-107', 'Burak Yıldız'),
    line(8, 150, 'TG-101', 'Ayşe Yılmaz'),
  ];
  const reasons = lines.flatMap((l) => matcher.assess(l).candidates.flatMap((c) => c.reasons));
  const withdrawals = new WithdrawalMatcher([
    {
      transactionId: uuid(201),
      number: 201,
      amountKurus: 10_000n,
      iban: 'TR330006100519786457841326',
      name: 'Deniz Ak',
      approvedAtMs: T0,
      matched: false,
    },
  ]);
  for (const [description, lira, iban, name] of [
    ['TG-201', 100, 'TR330006100519786457841326', undefined],
    ['TG-201', 90, 'TR000000000000000000000000', undefined],
    ['TG-201', 100, undefined, 'Deniz Ak'],
  ] as const) {
    const debit = { ...line(9, lira, description, name), direction: 'debit' as const };
    reasons.push(
      ...withdrawals
        .assess({ ...debit, ...(iban ? { counterpartyIban: iban } : {}) })
        .candidates.flatMap((c) => c.reasons),
    );
  }
  return reasons;
}

describe('reconciliation reasons, formats and layouts in both languages', () => {
  it('reads every reason the matchers write back into a code with its values', () => {
    const written = reasonsWritten();
    const unknown = written.filter((reason) => matchReasonParts(reason).code === 'other');
    expect(unknown).toEqual([]);
    const codes = new Set(written.map((reason) => matchReasonParts(reason).code));
    // The scenarios reach most branches, so the check above is about real phrases.
    expect(codes.size).toBeGreaterThanOrEqual(14);
    expect(matchReasonParts('amount differs by +1000.00 TRY')).toEqual({
      code: 'amount_differs_by',
      difference: '+1000.00',
      text: 'amount differs by +1000.00 TRY',
    });
    expect(matchReasonParts('reference TG-10 in the description')).toMatchObject({
      code: 'reference_in_description',
      number: 10,
    });
    expect(matchReasonParts('something new')).toEqual({ code: 'other', text: 'something new' });
  });

  it('offers exactly the formats and layouts the API takes', () => {
    expect([...STATEMENT_FORMAT_CODES]).toEqual([...STATEMENT_FORMAT_VALUES]);
    expect([...STATEMENT_LAYOUT_CODES].sort()).toEqual([...CSV_PRESET_NAMES].sort());
  });

  it.each(['en', 'tr'] as const)('has a %s text for every reason code, format, layout and preset', (locale) => {
    const recon = messages[locale].recon;
    const missing = [
      ...[...MATCH_REASON_CODES, 'other'].filter((c) => !(recon.reason_code as Record<string, string>)[c]?.trim()),
      ...STATEMENT_FORMAT_CODES.filter((c) => !recon.formats[c]?.trim()),
      ...STATEMENT_LAYOUT_CODES.filter((c) => !recon.layouts[c]?.trim()),
      ...DISMISS_PRESETS.filter((c) => !recon.dismiss_presets[c]?.trim()),
    ];
    expect(missing).toEqual([]);
  });

  it('says every reason in Turkish, not in English', () => {
    const en = messages.en.recon.reason_code as Record<string, string>;
    const tr = messages.tr.recon.reason_code as Record<string, string>;
    const copied = MATCH_REASON_CODES.filter((code) => tr[code] === en[code]);
    expect(copied).toEqual([]);
    expect(messages.tr.recon.dismiss).toBe('Yok say');
    expect(messages.tr.recon.link).toBe('Bağla');
  });
});
