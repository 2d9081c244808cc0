import { foldTurkish } from '../parsers/turkish-text.js';

/** Words that are not part of a person's name in bank texts. */
const NOISE = new Set(['bay', 'bayan', 'sn', 'sayin', 'mr', 'mrs', 'ms']);

export function nameTokens(name: string | undefined): string[] {
  if (!name) return [];
  return foldTurkish(name)
    .split(' ')
    .filter((t) => t.length > 0 && !NOISE.has(t) && !/^\d+$/.test(t));
}

/** Order-free key of a name (`yilmaz ayse` and `Ayşe YILMAZ` share it), for an index. */
export function nameKey(tokens: readonly string[]): string {
  return [...tokens].sort().join(' ');
}

/**
 * How well two names agree, 0..1, whatever the case, Turkish letters and word order: every word
 * equal → 1; a word given as its initial (`A. Yılmaz`) counts 0.8; all words of a two-or-more-word
 * name found in a longer one (a middle name left out) → 0.9; otherwise the share of words found.
 */
export function nameScore(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const free = [...long];
  let total = 0;
  const pending: string[] = [];
  for (const t of short) {
    const i = free.indexOf(t);
    if (i >= 0) {
      free.splice(i, 1);
      total += 1;
    } else pending.push(t);
  }
  let initials = 0;
  for (const t of pending) {
    const i = free.findIndex((f) => (t.length === 1 && f.startsWith(t)) || (f.length === 1 && t.startsWith(f)));
    if (i >= 0) {
      free.splice(i, 1);
      total += 0.8;
      initials += 1;
    }
  }
  const allShortFound = total + initials * 0.2 === short.length;
  if (allShortFound && short.length === long.length) return total / long.length;
  if (allShortFound && short.length >= 2 && initials === 0) return 0.9;
  return total / long.length;
}

/** Whether every word of `name` appears in `text` (a sender written into the description). */
export function nameInText(name: readonly string[], textTokens: ReadonlySet<string>): boolean {
  return name.length >= 2 && name.every((t) => textTokens.has(t));
}
