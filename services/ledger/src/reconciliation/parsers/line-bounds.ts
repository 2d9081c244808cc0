import type { ParsedLine, StatementProblem } from './statement.js';

/**
 * Bounds on the text of a statement line, taken from the standards the files follow, so that a file
 * cannot store a megabyte of "remittance information" per line (in the event store, the read
 * models, every queue page and export). Free text is cut to its bound with a warning in the import
 * report (the bank's line is still a line, and the customer's `TG-<id>` is at its start); an
 * identifier longer than its standard allows is refused, never cut: a cut reference could name
 * another line, a cut IBAN is no IBAN.
 */

/** ISO 20022 Max140Text: one unstructured remittance line (RmtInf/Ustrd). */
export const MAX_REMITTANCE_LINE_CHARS = 140;
/** ISO 20022 Max500Text: AddtlTxInf, AddtlNtryInf. */
export const MAX_ADDITIONAL_INFO_CHARS = 500;
/** SWIFT MT940 :86: (information to the account owner): 6 lines of 65 characters and the 5 breaks between. */
export const MAX_MT940_INFORMATION_CHARS = 6 * 65 + 5;
/**
 * A line's description as stored: every text the format gives for the line, joined (a few Ustrd
 * lines and the additional information of a camt entry; the whole :86: of MT940; a CSV column).
 */
export const MAX_DESCRIPTION_CHARS = 1_000;
/** ISO 20022 Max140Text (Nm); MT940's ?32/?33 are 2 × 27. */
export const MAX_COUNTERPARTY_NAME_CHARS = 140;
/** ISO 20022 Max35Text (AcctSvcrRef); MT940's bank reference is 16x. A line's identity: refused if longer. */
export const MAX_BANK_REFERENCE_CHARS = 35;
/** ISO 13616: at most 34 characters. Refused if longer. */
export const MAX_IBAN_CHARS = 34;
/** Warnings listed in one import report; the rest are counted in a last one. */
export const MAX_WARNINGS_REPORTED = 100;

/** Warnings of one file, bounded like its problems. */
export class WarningList {
  private readonly items: StatementProblem[] = [];
  private omitted = 0;

  add(at: string, message: string): void {
    if (this.items.length < MAX_WARNINGS_REPORTED) this.items.push({ at, message });
    else this.omitted += 1;
  }

  toArray(): StatementProblem[] {
    return this.omitted === 0
      ? [...this.items]
      : [...this.items, { at: 'file', message: `${this.omitted} more warnings not listed` }];
  }
}

/** `value` cut to `maxChars` characters (code points, never half a pair), with a warning when cut. */
export function cutText(value: string, maxChars: number, at: string, what: string, warnings: WarningList): string {
  if (value.length <= maxChars) return value;
  const chars = Array.from(value);
  if (chars.length <= maxChars) return value;
  warnings.add(at, `${what} of ${chars.length} characters cut to ${maxChars}`);
  return chars.slice(0, maxChars).join('').trimEnd();
}

/**
 * Applies the line bounds to a parsed line, whatever its format: free text cut with a warning,
 * identifiers refused (a throw, which the parsers turn into a problem of the line).
 */
export function boundLine(line: ParsedLine, at: string, warnings: WarningList): ParsedLine {
  if (line.bankReference !== undefined && Array.from(line.bankReference).length > MAX_BANK_REFERENCE_CHARS) {
    throw new Error(`a bank reference longer than ${MAX_BANK_REFERENCE_CHARS} characters is not a reference`);
  }
  if (line.counterpartyIban !== undefined && line.counterpartyIban.length > MAX_IBAN_CHARS) {
    throw new Error(`a counterparty IBAN longer than ${MAX_IBAN_CHARS} characters is not an IBAN`);
  }
  line.description = cutText(line.description, MAX_DESCRIPTION_CHARS, at, 'the description', warnings);
  if (line.counterpartyName !== undefined) {
    line.counterpartyName = cutText(
      line.counterpartyName,
      MAX_COUNTERPARTY_NAME_CHARS,
      at,
      "the counterparty's name",
      warnings,
    );
  }
  return line;
}
