/**
 * Why a reconciliation candidate was proposed, as codes the panel translates. The matchers write
 * their reasons as short English phrases into the line's events (the event log keeps them as
 * written, so lines assessed long ago read the same); this catalogue reads each phrase back into a
 * code and its values (`reference TG-12 in the description` → `reference_in_description`, number
 * 12), so that the screen shows every reason in the operator's language. A phrase no pattern knows
 * reads as `other` with its text, never as nothing.
 */
export const MATCH_REASON_CODES = [
  'reference_in_description',
  'matched_to_other_line',
  'approved_by_hand_before',
  'paid_after_expiry',
  'amount_equal',
  'amount_differs_by',
  'amount_differs',
  'sender_name_matches',
  'sender_name_matches_loosely',
  'customer_name_in_description',
  'sender_name_differs',
  'sender_name_partly_matches',
  'customer_not_named',
  'paid_minutes_after_request',
  'beneficiary_iban_equal',
  'beneficiary_iban_differs',
  'beneficiary_name_matches',
] as const;
export type MatchReasonCode = (typeof MATCH_REASON_CODES)[number];

export interface MatchReasonParts {
  code: MatchReasonCode | 'other';
  /** The deposit's or withdrawal's number, for reasons that name one. */
  number?: number;
  /** A signed decimal lira difference as the matcher wrote it (`+1000.00`, `-0.50`): text, never a float. */
  difference?: string;
  minutes?: number;
  /** The phrase as the matcher wrote it. */
  text: string;
}

const PATTERNS: ReadonlyArray<[RegExp, MatchReasonCode]> = [
  [/^reference TG-(?<number>\d+) in the description$/, 'reference_in_description'],
  [/^TG-(?<number>\d+) is matched to another line already$/, 'matched_to_other_line'],
  [/^TG-(?<number>\d+) was approved by hand before this line$/, 'approved_by_hand_before'],
  [/^paid after the deposit expired$/, 'paid_after_expiry'],
  [/^amount equal$/, 'amount_equal'],
  [/^amount differs by (?<difference>[+-]\d+\.\d{2}) TRY$/, 'amount_differs_by'],
  [/^amount differs$/, 'amount_differs'],
  [/^sender name matches$/, 'sender_name_matches'],
  [/^sender name matches \(initials or a middle name\)$/, 'sender_name_matches_loosely'],
  [/^customer name in the description$/, 'customer_name_in_description'],
  [/^sender name differs from the customer$/, 'sender_name_differs'],
  [/^sender name partly matches$/, 'sender_name_partly_matches'],
  [/^customer not named on the line$/, 'customer_not_named'],
  [/^paid (?<minutes>\d+) min after the request$/, 'paid_minutes_after_request'],
  [/^beneficiary IBAN equal$/, 'beneficiary_iban_equal'],
  [/^beneficiary IBAN differs$/, 'beneficiary_iban_differs'],
  [/^beneficiary name matches$/, 'beneficiary_name_matches'],
];

export function matchReasonParts(reason: string): MatchReasonParts {
  for (const [pattern, code] of PATTERNS) {
    const found = pattern.exec(reason);
    if (!found) continue;
    const groups = found.groups ?? {};
    const parts: MatchReasonParts = { code, text: reason };
    if (groups.number !== undefined) parts.number = Number(groups.number);
    if (groups.difference !== undefined) parts.difference = groups.difference;
    if (groups.minutes !== undefined) parts.minutes = Number(groups.minutes);
    return parts;
  }
  return { code: 'other', text: reason };
}

/**
 * Statement formats and CSV/XLSX layouts as the import form offers them: the codes the API takes
 * (libs/contracts' STATEMENT_FORMAT_VALUES and CSV_PRESET_NAMES; a spec holds them equal), each
 * shown by its translated name.
 */
export const STATEMENT_FORMAT_CODES = ['camt053', 'camt052', 'mt940', 'csv', 'xlsx'] as const;
export const STATEMENT_LAYOUT_CODES = ['garanti-bbva', 'is-bankasi'] as const;
