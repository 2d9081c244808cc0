import { foldTurkish } from '../parsers/turkish-text.js';

/**
 * The payment page's `TG-<id>` references found anywhere in a description, however typed:
 * `TG-1042`, `tg 1042`, `TG1042`, `T G - 1042`, `Tğ1042`, `tg_1042`, `(TG#1042)`. The text is
 * folded first (case, Turkish letters, punctuation to spaces); `t` must start a word so that
 * `…ST G 12` is no reference. At most a few per line: more is a pasted list, not a payment.
 */
const REFERENCE = /(?:^| )t ?g ?0*(\d{1,12})(?![0-9])/g;
export const MAX_REFERENCES_PER_LINE = 3;

export function findReferences(description: string): number[] {
  const folded = foldTurkish(description);
  const found = new Set<number>();
  for (const m of folded.matchAll(REFERENCE)) {
    const n = Number(m[1]);
    if (Number.isSafeInteger(n) && n > 0) found.add(n);
    if (found.size > MAX_REFERENCES_PER_LINE) return [];
  }
  return [...found];
}
