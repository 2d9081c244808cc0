import { parseTurkishAmountKurus } from '@transfergate/contracts';

const NUMBER = /^[1-9]\d{0,14}$/;
/** The payment page's reference (`TG-18`), as customers write it in the transfer description. */
const REFERENCE = /^TG[-\s]?([1-9]\d{0,14})$/i;
/** Something IBAN-like: letters and digits only once spaces are gone (`TR12 0006 …`). */
const IBAN_PART = /^[A-Z0-9]{4,34}$/;

/**
 * Turkish letters to their Latin base, both sides of the comparison, so `ozturk` finds `Öztürk`
 * and `ISIK` finds `Işık`. PostgreSQL's translate() maps position by position (same lists in SQL
 * and here), then ILIKE ignores the remaining ASCII case; works the same on PGlite.
 */
const TURKISH_FROM = 'ÇĞİIÖŞÜÂÎÛçğıöşüâîû';
const TURKISH_TO = 'CGIIOSUAIUcgiosuaiu';
const foldSql = (expression: string) => `translate(${expression}, '${TURKISH_FROM}', '${TURKISH_TO}')`;

export function foldTurkish(text: string): string {
  let out = '';
  for (const c of text) {
    const at = TURKISH_FROM.indexOf(c);
    out += at >= 0 ? TURKISH_TO[at] : c;
  }
  return out;
}

/** `%text%` for ILIKE … ESCAPE '\': the operator's text is matched literally, never as a pattern. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The list's search box as one parameterised condition over `rm_transactions t` joined with
 * `rm_bank_accounts ba`: what operators copy from the bank screen finds the transaction.
 * - text in the external id, the customer's name or username (Turkish letters folded);
 * - the destination IBAN (withdrawal) or the receiving account's IBAN (deposit), spaces ignored;
 * - the number, or the `TG-<number>` reference;
 * - the exact amount in any Turkish spelling (`45000`, `45.000`, `45000,00`).
 */
export function searchCondition(q: string, param: (value: unknown) => string): string {
  const folded = param(containsPattern(foldTurkish(q)));
  const alternatives = [
    `t.external_id ilike ${param(containsPattern(q))} escape '\\'`,
    `${foldSql(`t.customer->>'fullName'`)} ilike ${folded} escape '\\'`,
    `${foldSql(`t.customer->>'username'`)} ilike ${folded} escape '\\'`,
  ];
  const compact = q.replace(/\s+/g, '').toUpperCase();
  if (IBAN_PART.test(compact)) {
    const iban = param(containsPattern(compact));
    alternatives.push(`replace(t.iban, ' ', '') ilike ${iban} escape '\\'`);
    alternatives.push(`replace(ba.iban, ' ', '') ilike ${iban} escape '\\'`);
  }
  const reference = REFERENCE.exec(q.trim())?.[1];
  if (reference) alternatives.push(`t.number = ${param(reference)}::bigint`);
  if (NUMBER.test(q.trim())) alternatives.push(`t.number = ${param(q.trim())}::bigint`);
  const amount = parseTurkishAmountKurus(q);
  if (amount !== null) alternatives.push(`t.amount_kurus = ${param(amount.toString())}::bigint`);
  return `(${alternatives.join(' or ')})`;
}

/**
 * The fee as the panel shows it: for a deposit the commission really withheld (the posted transfer
 * to fee revenue, 0 until approved); for a withdrawal the fee reserved with it.
 */
export const FEE_WITHHELD = `(case when t.type = 'deposit' then coalesce((select sum(f.amount_kurus) from rm_transfers f
   where f.transaction_id = t.transaction_id and f.credit_account = 'fees' and f.state = 'posted'), 0)
   else t.fee_kurus end)::text`;
