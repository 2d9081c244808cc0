import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { kurusToDecimalString } from '@transfergate/contracts';
import {
  MAX_ADDITIONAL_INFO_CHARS,
  MAX_REMITTANCE_LINE_CHARS,
  WarningList,
  boundLine,
  cutText,
} from './line-bounds.js';
import { parseMoneyText, parseDateText } from './turkish-text.js';
import { ProblemList, type ParsedLine, type ParsedStatement } from './statement.js';

/**
 * ISO 20022 camt.053 (end-of-day statement, BkToCstmrStmt/Stmt) and camt.052 (intraday report,
 * BkToCstmrAcctRpt/Rpt), any message version: namespaces are dropped and only the element names
 * both versions share are read. fast-xml-parser keeps every value as text (no number coercion), so
 * amounts stay exact. Before the parser sees a file it is screened (screenXml): a camt message has
 * no DOCTYPE, so any declaration is refused (no entity of any kind, internal, external or
 * parameter, is ever expanded or stored as its reference), and so is nesting deeper than
 * MAX_XML_DEPTH; the five predefined entities and character references are decoded in values.
 *
 * A camt.053 adds up or is refused whole: closing = opening + credits − debits of its booked
 * entries, to the kuruş (a statement that does not is corrupt or edited, and its lines are not
 * what the bank booked).
 *
 * One line per entry (Ntry); a batch entry with several TxDtls that each carry an amount becomes one
 * line per TxDtls. Pending (Sts ≠ BOOK) entries of an intraday report are skipped and listed: they
 * may still be cancelled, and the end-of-day statement books them.
 */
const ARRAYS = new Set(['Stmt', 'Rpt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'AddtlNtryInf']);

/**
 * Element depth of a camt file. The deepest path a camt.053.001.08 entry uses
 * (Document/…/Ntry/NtryDtls/TxDtls/RltdPties/Dbtr/Pty/Id/OrgId/Othr/SchmeNm/Cd) is under 20.
 */
export const MAX_XML_DEPTH = 64;

const parser = new XMLParser({
  removeNSPrefix: true,
  // The screen refuses deeper files first; this is the parser's own guard behind it.
  maxNestedTags: MAX_XML_DEPTH + 1,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  trimValues: true,
  isArray: (name) => ARRAYS.has(name),
});

type Node = Record<string, unknown>;

export function parseCamt(content: string, format: 'camt053' | 'camt052'): ParsedStatement {
  const problems = new ProblemList();
  const screened = screenXml(content);
  if (screened) {
    problems.add(`line ${screened.line}`, screened.message);
    problems.throwIfAny();
  }
  const valid = XMLValidator.validate(content);
  if (valid !== true) {
    problems.add(`line ${valid.err.line}`, `not well-formed XML: ${valid.err.msg}`);
    problems.throwIfAny();
  }
  let doc: Node = {};
  try {
    doc = parser.parse(content) as Node;
  } catch (error) {
    problems.add('document', `unreadable XML: ${error instanceof Error ? error.message : String(error)}`);
    problems.throwIfAny();
  }
  const root = node(doc['Document']);
  const message = format === 'camt053' ? node(root?.['BkToCstmrStmt']) : node(root?.['BkToCstmrAcctRpt']);
  const statements = list(message?.[format === 'camt053' ? 'Stmt' : 'Rpt']);
  if (!message || statements.length === 0) {
    const expected = format === 'camt053' ? 'Document/BkToCstmrStmt/Stmt' : 'Document/BkToCstmrAcctRpt/Rpt';
    problems.add('document', `not a ${format === 'camt053' ? 'camt.053' : 'camt.052'} file: no ${expected}`);
    problems.throwIfAny();
  }
  if (statements.length > 1) {
    problems.add('document', `${statements.length} statements in one file: import one account's statement at a time`);
  }
  const stmt = statements[0]!;
  const warnings = new WarningList();
  const result: ParsedStatement = { format, lines: [], skipped: [], warnings: [] };
  const iban = text(path(stmt, 'Acct', 'Id', 'IBAN'));
  if (iban) result.accountIban = iban.replace(/\s+/g, '').toUpperCase();
  for (const [i, bal] of list(stmt['Bal']).entries()) {
    const code = text(path(bal, 'Tp', 'CdOrPrtry', 'Cd'));
    // PRCD (previously closed booked) opens a statement as OPBD does, in the banks that use it.
    if (code !== 'OPBD' && code !== 'PRCD' && code !== 'CLBD' && code !== 'ITBD') continue;
    const amount = problems.attempt(`balance ${i + 1}`, () => signedAmount(bal, 'balance'));
    if (amount === undefined) continue;
    if (code === 'OPBD' || code === 'PRCD') result.openingBalanceKurus ??= amount;
    else result.closingBalanceKurus = amount;
  }
  for (const [i, ntry] of list(stmt['Ntry']).entries()) {
    const at = `entry ${i + 1}`;
    const status = text(path(ntry, 'Sts', 'Cd')) ?? text(ntry['Sts']);
    if (status && status !== 'BOOK') {
      result.skipped.push({ at, reason: `status ${status} (not booked yet)` });
      continue;
    }
    const lines = problems.attempt(at, () => entryLines(ntry, at, warnings));
    if (lines) result.lines.push(...lines);
  }
  if (format === 'camt053') checkBalances(result, problems);
  problems.throwIfAny();
  result.warnings = warnings.toArray();
  return result;
}

/**
 * An end-of-day statement states both balances and its booked entries join them exactly; one that
 * does not is refused whole, naming the difference. (An intraday camt.052 is not checked: its
 * balances are interim and its pending entries are left out.)
 */
function checkBalances(statement: ParsedStatement, problems: ProblemList): void {
  const opening = statement.openingBalanceKurus;
  const closing = statement.closingBalanceKurus;
  if (opening === undefined) problems.add('balances', 'no opening balance (Bal OPBD): a camt.053 states it');
  if (closing === undefined) problems.add('balances', 'no closing balance (Bal CLBD): a camt.053 states it');
  if (opening === undefined || closing === undefined || problems.problems.length > 0) return;
  const message = balanceMismatch(opening, closing, statement.lines);
  if (message) problems.add('balances', message.text, { differenceKurus: message.differenceKurus.toString() });
}

/** Whether opening + credits − debits = closing; if not, the sentence that says by how much. */
export function balanceMismatch(
  openingKurus: bigint,
  closingKurus: bigint,
  lines: readonly ParsedLine[],
): { text: string; differenceKurus: bigint } | undefined {
  let credits = 0n;
  let debits = 0n;
  for (const line of lines) {
    if (line.direction === 'credit') credits += line.amountKurus;
    else debits += line.amountKurus;
  }
  const expected = openingKurus + credits - debits;
  const difference = closingKurus - expected;
  if (difference === 0n) return undefined;
  const tl = (k: bigint) => `${kurusToDecimalString(k)} TRY`;
  return {
    differenceKurus: difference,
    text:
      `the balances do not add up: opening ${tl(openingKurus)} + credits ${tl(credits)} − debits ${tl(debits)} ` +
      `= ${tl(expected)}, but the closing balance is ${tl(closingKurus)} ` +
      `(a difference of ${tl(difference)}, ${difference} kuruş): the file is corrupt or was edited`,
  };
}

function entryLines(ntry: Node, at: string, warnings: WarningList): ParsedLine[] {
  const amount = signedAmount(ntry, 'entry');
  if (text(ntry['RvslInd']) === 'true') throw new Error('reversal entries are not supported; import them by hand');
  const booked = dateOf(node(ntry['BookgDt']), 'BookgDt');
  const value = node(ntry['ValDt']) ? dateOf(node(ntry['ValDt']), 'ValDt') : undefined;
  const details = list(ntry['NtryDtls']).flatMap((d) => list(d['TxDtls']));
  const entryRef = text(ntry['AcctSvcrRef']);
  const entryInfo = list(ntry['AddtlNtryInf'])
    .map(text)
    .filter((s): s is string => Boolean(s))
    .map((s) => cutText(s, MAX_ADDITIONAL_INFO_CHARS, at, 'AddtlNtryInf', warnings))
    .join(' ');
  const split = details.length > 1 && details.every((d) => txAmountNode(d) !== undefined);
  const parts = split ? details : [details[0]];
  if (split) {
    // A batch entry's parts are its lines: they must add up to the entry, or the lines are not the entry.
    const sum = parts.reduce(
      (s, tx) => s + signedAmount(txAmountNode(tx)!, 'TxDtls', amount < 0n ? 'DBIT' : 'CRDT'),
      0n,
    );
    if (sum !== amount) {
      throw new Error(
        `the TxDtls amounts add up to ${kurusToDecimalString(sum)} TRY, the entry to ${kurusToDecimalString(amount)} TRY`,
      );
    }
  }
  return parts.map((tx, k) => {
    const kurus = split ? signedAmount(txAmountNode(tx)!, 'TxDtls', amount < 0n ? 'DBIT' : 'CRDT') : amount;
    const ref = text(path(tx, 'Refs', 'AcctSvcrRef')) ?? (entryRef && split ? `${entryRef}/${k + 1}` : entryRef);
    const debit = kurus < 0n;
    // The other party: the debtor of a credit, the creditor of a debit (2009 and 2019 layouts).
    const party = debit ? 'Cdtr' : 'Dbtr';
    const name = text(path(tx, 'RltdPties', party, 'Nm')) ?? text(path(tx, 'RltdPties', party, 'Pty', 'Nm'));
    const otherIban = text(path(tx, 'RltdPties', `${party}Acct`, 'Id', 'IBAN')) ?? undefined;
    const lineAt = split ? `${at} TxDtls ${k + 1}` : at;
    const remittance = list(path(tx, 'RmtInf')?.['Ustrd'])
      .map(text)
      .filter((s): s is string => Boolean(s))
      .map((s) => cutText(s, MAX_REMITTANCE_LINE_CHARS, lineAt, 'Ustrd', warnings));
    const txInfo = text(path(tx, 'AddtlTxInf'));
    const description = [
      ...remittance,
      txInfo && cutText(txInfo, MAX_ADDITIONAL_INFO_CHARS, lineAt, 'AddtlTxInf', warnings),
      entryInfo,
    ]
      .filter((s): s is string => Boolean(s))
      .join(' ')
      .trim();
    const line: ParsedLine = {
      bookedOn: booked.day,
      direction: debit ? 'debit' : 'credit',
      amountKurus: debit ? -kurus : kurus,
      description,
    };
    if (booked.at) line.bookedAt = booked.at;
    if (value) line.valueOn = value.day;
    if (ref) line.bankReference = ref;
    if (name) line.counterpartyName = name;
    if (otherIban) line.counterpartyIban = otherIban.replace(/\s+/g, '').toUpperCase();
    if (line.amountKurus <= 0n) throw new Error('an entry amount must be positive');
    return boundLine(line, lineAt, warnings);
  });
}

function txAmountNode(tx: Node | undefined): Node | undefined {
  const amt = path(tx, 'Amt') ?? path(tx, 'AmtDtls', 'TxAmt');
  if (!amt) return undefined;
  return { Amt: 'Amt' in amt ? amt['Amt'] : amt, CdtDbtInd: tx?.['CdtDbtInd'] };
}

/** `<Amt Ccy="TRY">1234.56</Amt>` with `<CdtDbtInd>`: kuruş, negative for a debit. */
function signedAmount(holder: Node, what: string, defaultIndicator?: string): bigint {
  const amt = holder['Amt'];
  const raw = typeof amt === 'object' && amt !== null ? text((amt as Node)['#text']) : text(amt);
  const currency = typeof amt === 'object' && amt !== null ? text((amt as Node)['@Ccy']) : undefined;
  if (!raw) throw new Error(`${what} has no Amt`);
  if (currency && currency !== 'TRY') throw new Error(`${what} in ${currency}: only TRY accounts are reconciled`);
  const kurus = parseMoneyText(raw, '.');
  const indicator = text(holder['CdtDbtInd']) ?? defaultIndicator;
  if (indicator !== 'CRDT' && indicator !== 'DBIT') throw new Error(`${what} has no CdtDbtInd CRDT/DBIT`);
  return indicator === 'DBIT' ? -kurus : kurus;
}

/** `<Dt>2026-11-23</Dt>` or `<DtTm>2026-11-23T14:05:00+03:00</DtTm>`. */
function dateOf(holder: Node | undefined, what: string): { day: string; at?: string } {
  const dt = text(holder?.['Dt']);
  if (dt) return parseDateText(dt, 'YMD');
  const dtTm = text(holder?.['DtTm']);
  if (!dtTm) throw new Error(`no ${what}`);
  const ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(dtTm) ? dtTm : `${dtTm}+03:00`);
  if (Number.isNaN(ms)) throw new Error(`${what} is not a date-time: ${dtTm}`);
  const at = new Date(ms).toISOString();
  return { day: new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10), at };
}

function node(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : undefined;
}

function list(value: unknown): Node[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'object' ? (v as Node) : { '#text': v }));
}

function path(from: Node | undefined, ...names: string[]): Node | undefined {
  let at: unknown = from;
  for (const name of names) {
    if (Array.isArray(at)) at = at[0];
    at = node(at)?.[name];
  }
  if (Array.isArray(at)) at = at[0];
  return typeof at === 'string' ? { '#text': at } : node(at);
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return decodeXmlText(value).trim() || undefined;
  const n = node(value);
  if (n && typeof n['#text'] === 'string') return decodeXmlText(n['#text']).trim() || undefined;
  return undefined;
}

/** The predefined entities and character references (the only ones the screen lets through), decoded. */
function decodeXmlText(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return PREDEFINED[name]!;
  });
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** What may follow `&` in a camt file: a predefined entity or a character reference. */
const ALLOWED_REFERENCE = /^&(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/;

/**
 * One linear pass over the text before any parser sees it: refuses a DOCTYPE (or any other `<!`
 * declaration but a comment and CDATA), a reference to any entity but the predefined five, and
 * elements nested deeper than MAX_XML_DEPTH. The XML parsers recurse or build a stack per level
 * and expand declared entities; a camt message needs neither a declaration nor depth.
 */
export function screenXml(content: string): { line: number; message: string } | undefined {
  const refuse = (index: number, message: string) => ({ line: lineAt(content, index), message });
  // The next `&` at or after the part being looked at, found once: searching afresh from every
  // text and tag would scan to the end of a file without any `&` once per element (quadratic).
  let amp = content.indexOf('&');
  const badReference = (from: number, to: number) => {
    while (amp >= 0 && amp < from) amp = content.indexOf('&', amp + 1);
    for (; amp >= 0 && amp < to; amp = content.indexOf('&', amp + 1)) {
      if (!ALLOWED_REFERENCE.test(content.slice(amp, amp + 12))) return amp;
    }
    return -1;
  };
  let depth = 0;
  let i = 0;
  while (i < content.length) {
    const open = content.indexOf('<', i);
    const textEnd = open < 0 ? content.length : open;
    const bad = badReference(i, textEnd);
    if (bad >= 0)
      return refuse(
        bad,
        `an entity reference ${referenceAt(content, bad)}: only &amp; &lt; &gt; &quot; &apos; and character references are read`,
      );
    if (open < 0) break;
    if (content.startsWith('<!--', open)) {
      const end = content.indexOf('-->', open + 4);
      if (end < 0) return refuse(open, 'not well-formed XML: an unclosed comment');
      i = end + 3;
      continue;
    }
    if (content.startsWith('<![CDATA[', open)) {
      const end = content.indexOf(']]>', open + 9);
      if (end < 0) return refuse(open, 'not well-formed XML: an unclosed CDATA section');
      i = end + 3;
      continue;
    }
    if (content.startsWith('<!', open)) {
      return refuse(open, 'a DOCTYPE or other declaration: camt files have none, and no entity is expanded');
    }
    if (content.startsWith('<?', open)) {
      const end = content.indexOf('?>', open + 2);
      if (end < 0) return refuse(open, 'not well-formed XML: an unclosed processing instruction');
      i = end + 2;
      continue;
    }
    // A tag: up to its `>`, which may not be inside a quoted attribute value.
    let j = open + 1;
    let quote = 0;
    for (; j < content.length; j++) {
      const c = content.charCodeAt(j);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e) break;
    }
    if (j >= content.length) return refuse(open, 'not well-formed XML: an unclosed tag');
    const inTag = badReference(open, j);
    if (inTag >= 0) return refuse(inTag, `an entity reference ${referenceAt(content, inTag)} in a tag`);
    if (content.charCodeAt(open + 1) === 0x2f) depth -= 1;
    else if (content.charCodeAt(j - 1) !== 0x2f) {
      depth += 1;
      if (depth > MAX_XML_DEPTH) return refuse(open, `elements nested deeper than ${MAX_XML_DEPTH} levels`);
    }
    i = j + 1;
  }
  return undefined;
}

function referenceAt(content: string, amp: number): string {
  const m = /^&[^\s;<&]{0,20};?/.exec(content.slice(amp, amp + 24));
  return JSON.stringify(m ? m[0] : '&');
}

function lineAt(content: string, index: number): number {
  let line = 1;
  for (let at = content.indexOf('\n'); at >= 0 && at < index; at = content.indexOf('\n', at + 1)) line += 1;
  return line;
}
