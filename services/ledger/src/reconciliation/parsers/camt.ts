import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseMoneyText, parseDateText } from './turkish-text.js';
import { ProblemList, type ParsedLine, type ParsedStatement } from './statement.js';

/**
 * ISO 20022 camt.053 (end-of-day statement, BkToCstmrStmt/Stmt) and camt.052 (intraday report,
 * BkToCstmrAcctRpt/Rpt), any message version: namespaces are dropped and only the element names
 * both versions share are read. fast-xml-parser keeps every value as text (no number coercion), so
 * amounts stay exact; entity expansion is off (no billion laughs).
 *
 * One line per entry (Ntry); a batch entry with several TxDtls that each carry an amount becomes one
 * line per TxDtls. Pending (Sts ≠ BOOK) entries of an intraday report are skipped and listed: they
 * may still be cancelled, and the end-of-day statement books them.
 */
const ARRAYS = new Set(['Stmt', 'Rpt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'AddtlNtryInf']);

const parser = new XMLParser({
  removeNSPrefix: true,
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
  const valid = XMLValidator.validate(content);
  if (valid !== true) {
    problems.add(`line ${valid.err.line}`, `not well-formed XML: ${valid.err.msg}`);
    problems.throwIfAny();
  }
  const doc = parser.parse(content) as Node;
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
  const result: ParsedStatement = { format, lines: [], skipped: [] };
  const iban = text(path(stmt, 'Acct', 'Id', 'IBAN'));
  if (iban) result.accountIban = iban.replace(/\s+/g, '').toUpperCase();
  for (const [i, bal] of list(stmt['Bal']).entries()) {
    const code = text(path(bal, 'Tp', 'CdOrPrtry', 'Cd'));
    if (code !== 'OPBD' && code !== 'CLBD' && code !== 'ITBD') continue;
    const amount = problems.attempt(`balance ${i + 1}`, () => signedAmount(bal, 'balance'));
    if (amount === undefined) continue;
    if (code === 'OPBD') result.openingBalanceKurus = amount;
    else result.closingBalanceKurus = amount;
  }
  for (const [i, ntry] of list(stmt['Ntry']).entries()) {
    const at = `entry ${i + 1}`;
    const status = text(path(ntry, 'Sts', 'Cd')) ?? text(ntry['Sts']);
    if (status && status !== 'BOOK') {
      result.skipped.push({ at, reason: `status ${status} (not booked yet)` });
      continue;
    }
    const lines = problems.attempt(at, () => entryLines(ntry));
    if (lines) result.lines.push(...lines);
  }
  problems.throwIfAny();
  return result;
}

function entryLines(ntry: Node): ParsedLine[] {
  const amount = signedAmount(ntry, 'entry');
  if (text(ntry['RvslInd']) === 'true') throw new Error('reversal entries are not supported; import them by hand');
  const booked = dateOf(node(ntry['BookgDt']), 'BookgDt');
  const value = node(ntry['ValDt']) ? dateOf(node(ntry['ValDt']), 'ValDt') : undefined;
  const details = list(ntry['NtryDtls']).flatMap((d) => list(d['TxDtls']));
  const entryRef = text(ntry['AcctSvcrRef']);
  const entryInfo = list(ntry['AddtlNtryInf']).map(text).filter(Boolean).join(' ');
  const split = details.length > 1 && details.every((d) => txAmountNode(d) !== undefined);
  const parts = split ? details : [details[0]];
  return parts.map((tx, k) => {
    const kurus = split ? signedAmount(txAmountNode(tx)!, 'TxDtls', amount < 0n ? 'DBIT' : 'CRDT') : amount;
    const ref = text(path(tx, 'Refs', 'AcctSvcrRef')) ?? (entryRef && split ? `${entryRef}/${k + 1}` : entryRef);
    const debit = kurus < 0n;
    // The other party: the debtor of a credit, the creditor of a debit (2009 and 2019 layouts).
    const party = debit ? 'Cdtr' : 'Dbtr';
    const name = text(path(tx, 'RltdPties', party, 'Nm')) ?? text(path(tx, 'RltdPties', party, 'Pty', 'Nm'));
    const otherIban = text(path(tx, 'RltdPties', `${party}Acct`, 'Id', 'IBAN')) ?? undefined;
    const remittance = list(path(tx, 'RmtInf')?.['Ustrd']).map(text);
    const description = [...remittance, text(path(tx, 'AddtlTxInf')), entryInfo]
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
    return line;
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
  if (typeof value === 'string') return value.trim() || undefined;
  const n = node(value);
  if (n && typeof n['#text'] === 'string') return n['#text'].trim() || undefined;
  return undefined;
}
