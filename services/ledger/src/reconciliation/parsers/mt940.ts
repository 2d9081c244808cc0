import { balanceMismatch } from './camt.js';
import { MAX_MT940_INFORMATION_CHARS, WarningList, boundLine, cutText } from './line-bounds.js';
import { calendarDay, parseMoneyText } from './turkish-text.js';
import { ProblemList, type ParsedLine, type ParsedStatement } from './statement.js';

/**
 * SWIFT MT940, written here rather than taken from npm: the maintained candidate (mt940js) hands
 * amounts out as JavaScript floats and dates as local-time Date objects, and money here is never a
 * float. The format is small: tags `:20:` `:25:` `:28C:` `:60F/M:` `:61:` `:86:` `:62F/M:` `:64:`,
 * a tag's text continuing on the following lines until the next tag; block wrappers `{1:…}{4:`
 * and the `-}` trailer are tolerated. Turkish banks put the sender and the customer's text in `:86:`
 * (free text or `?20`…`?29` / `?32` `?33` subfields).
 *
 * The mandatory tags (MANDATORY_TAGS) must all be there, and the balances must add up (opening +
 * credits − debits = closing, to the kuruş) when every :61: was read: a statement without its
 * closing balance, or one whose lines do not join its balances, is refused whole.
 *
 * `:61:` = value date YYMMDD, optional entry date MMDD, mark (C, D, RC, RD), optional funds code,
 * amount `1234,56`, transaction type (N/F/S + 3), customer reference, optional `//` bank reference,
 * optional supplementary line.
 */
const LINE_61 =
  /^(\d{6})(\d{4})?(RC|RD|C|D)([A-Z])?(\d{1,15},\d{0,2})([NFS][A-Z0-9]{3})([^/\n]{0,16}?)?(?:\/\/([^\n]{0,16}))?(?:\n([\s\S]*))?$/;

/** The tags an MT940 statement must carry (SWIFT MT940 field specifications), each with what it is. */
export const MANDATORY_TAGS: ReadonlyArray<{ tags: readonly string[]; name: string; what: string }> = [
  { tags: ['20'], name: ':20:', what: 'transaction reference' },
  { tags: ['25'], name: ':25:', what: 'account identification' },
  // The older `:28:` (statement number without sequence) is still printed by some banks.
  { tags: ['28C', '28'], name: ':28C:', what: 'statement number' },
  { tags: ['60F', '60M'], name: ':60F:/:60M:', what: 'opening balance' },
  { tags: ['62F', '62M'], name: ':62F:/:62M:', what: 'closing balance' },
];

export function parseMt940(content: string): ParsedStatement {
  const problems = new ProblemList();
  const tags = splitTags(content.replace(/\r\n?/g, '\n'));
  if (!tags.some((t) => t.tag === '20') || !tags.some((t) => t.tag === '61' || t.tag.startsWith('62'))) {
    problems.add('file', 'not an MT940 statement: no :20: and :61:/:62: tags');
    problems.throwIfAny();
  }
  const present = new Set(tags.map((t) => t.tag));
  for (const mandatory of MANDATORY_TAGS) {
    if (!mandatory.tags.some((t) => present.has(t))) {
      problems.add('file', `the mandatory tag ${mandatory.name} (${mandatory.what}) is missing`);
    }
  }
  const warnings = new WarningList();
  const result: ParsedStatement = { format: 'mt940', lines: [], skipped: [], warnings: [] };
  const lineTags: string[] = [];
  let statements = 0;
  let current: ParsedLine | undefined;
  for (const { tag, value, line } of tags) {
    const at = `line ${line}`;
    switch (tag) {
      case '20':
        statements += 1;
        break;
      case '25': {
        const iban = value.replace(/\s+/g, '').toUpperCase();
        if (/^TR\d{24}$/.test(iban)) result.accountIban = iban;
        else if (/TR\d{24}/.test(iban)) result.accountIban = /TR\d{24}/.exec(iban)![0];
        break;
      }
      case '60F':
      case '60M': {
        const balance = problems.attempt(at, () => parseBalance(value));
        if (balance !== undefined && result.openingBalanceKurus === undefined) result.openingBalanceKurus = balance;
        break;
      }
      case '62F':
      case '62M': {
        const balance = problems.attempt(at, () => parseBalance(value));
        if (balance !== undefined) result.closingBalanceKurus = balance;
        break;
      }
      case '61':
        current = problems.attempt(at, () => parseLine61(value));
        if (current) {
          result.lines.push(current);
          lineTags.push(at);
        }
        break;
      case '86':
        if (current) applyDetails(current, cutText(value, MAX_MT940_INFORMATION_CHARS, at, ':86:', warnings));
        current = undefined;
        break;
      default:
        break;
    }
  }
  if (statements > 1) problems.add('file', `${statements} statements (:20:) in one file: import one at a time`);
  result.lines.forEach((line, i) => problems.attempt(lineTags[i]!, () => boundLine(line, lineTags[i]!, warnings)));
  const { openingBalanceKurus: opening, closingBalanceKurus: closing } = result;
  if (problems.problems.length === 0 && opening !== undefined && closing !== undefined) {
    const mismatch = balanceMismatch(opening, closing, result.lines);
    if (mismatch) problems.add('balances', mismatch.text, { differenceKurus: mismatch.differenceKurus.toString() });
  }
  problems.throwIfAny();
  result.warnings = warnings.toArray();
  return result;
}

interface Tag {
  tag: string;
  value: string;
  line: number;
}

function splitTags(content: string): Tag[] {
  const out: Tag[] = [];
  const lines = content.split('\n');
  for (const [i, raw] of lines.entries()) {
    const m = /^:(\d{2}[A-Z]?):(.*)$/.exec(raw);
    if (m) {
      out.push({ tag: m[1]!, value: m[2]!, line: i + 1 });
      continue;
    }
    const line = raw.replace(/^\{\d:[^}]*\}/g, '');
    if (line === '-}' || line === '-' || line.startsWith('{')) continue;
    const last = out[out.length - 1];
    if (last) last.value += `\n${line}`;
  }
  return out;
}

/** `C261123TRY1234,56` → signed kuruş. */
function parseBalance(value: string): bigint {
  const m = /^([CD])(\d{6})([A-Z]{3})(\d{1,15},\d{0,2})$/.exec(value.trim());
  if (!m) throw new Error(`unreadable balance ${JSON.stringify(value)}`);
  if (m[3] !== 'TRY') throw new Error(`balance in ${m[3]}: only TRY accounts are reconciled`);
  const kurus = parseMoneyText(m[4]!, ',');
  return m[1] === 'D' ? -kurus : kurus;
}

function parseLine61(value: string): ParsedLine {
  const m = LINE_61.exec(value.trimEnd());
  if (!m) throw new Error(`unreadable :61: ${JSON.stringify(value.split('\n')[0])}`);
  const [, valueDate, entryDate, mark, , amountText, , , bankRef, supplementary] = m;
  if (mark!.startsWith('R')) throw new Error('reversal entries (RC/RD) are not supported; import them by hand');
  const valueOn = yymmdd(valueDate!);
  let bookedOn = valueOn;
  if (entryDate) {
    // The entry date has no year: the value date's, or the next/previous one across a new year.
    const year = Number(valueOn.slice(0, 4));
    const month = Number(entryDate.slice(0, 2));
    const valueMonth = Number(valueOn.slice(5, 7));
    const y = month === 1 && valueMonth === 12 ? year + 1 : month === 12 && valueMonth === 1 ? year - 1 : year;
    bookedOn = calendarDay(y, month, Number(entryDate.slice(2, 4))).day;
  }
  const amountKurus = parseMoneyText(amountText!, ',');
  if (amountKurus <= 0n) throw new Error('an entry amount must be positive');
  const line: ParsedLine = {
    bookedOn,
    valueOn,
    direction: mark === 'D' ? 'debit' : 'credit',
    amountKurus,
    description: supplementary?.trim() ?? '',
  };
  const ref = bankRef?.trim();
  if (ref && ref !== 'NONREF') line.bankReference = ref;
  return line;
}

function yymmdd(text: string): string {
  const y = Number(text.slice(0, 2));
  // SWIFT years: 00-79 → 20xx, 80-99 → 19xx.
  return calendarDay(y < 80 ? 2000 + y : 1900 + y, Number(text.slice(2, 4)), Number(text.slice(4, 6))).day;
}

/** `:86:` free text, or `?NN` subfields: ?20-?29 text, ?32/?33 name, ?31 IBAN. */
function applyDetails(line: ParsedLine, value: string): void {
  const flat = value.replace(/\n/g, '');
  if (/^\d{3}\?\d{2}|^\?\d{2}/.test(flat)) {
    const fields = new Map<string, string>();
    for (const m of flat.matchAll(/\?(\d{2})([^?]*)/g)) {
      fields.set(m[1]!, (fields.get(m[1]!) ?? '') + m[2]!);
    }
    const text = [...fields]
      .filter(([k]) => Number(k) >= 20 && Number(k) <= 29)
      .map(([, v]) => v)
      .join('');
    line.description = [line.description, text].filter(Boolean).join(' ').trim();
    const name = [fields.get('32'), fields.get('33')].filter(Boolean).join('');
    if (name) line.counterpartyName = name.trim();
    const iban = fields.get('31')?.replace(/\s+/g, '').toUpperCase();
    if (iban && /^TR\d{24}$/.test(iban)) line.counterpartyIban = iban;
    return;
  }
  const text = value.replace(/\n/g, ' ').replace(/\s+/g, ' ').trim();
  line.description = [line.description, text].filter(Boolean).join(' ').trim();
  // Common Turkish free-text layouts: "GÖNDEREN: AD SOYAD" / "GONDEREN AD SOYAD - açıklama".
  const sender = /G[ÖO]NDEREN\s*[:=]?\s*([^/;|\n-]+?)(?:\s+[-/;|]|\s+A[ÇC]IKLAMA|$)/i.exec(text);
  if (sender) line.counterpartyName = sender[1]!.trim();
  const iban = /TR\d{2}(?:\s?\d{4}){5}\s?\d{2}/.exec(text);
  if (iban) line.counterpartyIban = iban[0].replace(/\s+/g, '');
}
