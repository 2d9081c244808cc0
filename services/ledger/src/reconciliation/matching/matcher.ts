import type { LineDifference, MatchCandidate } from '@transfergate/contracts';
import { foldTurkish } from '../parsers/turkish-text.js';
import { nameInText, nameKey, nameScore, nameTokens } from './names.js';
import { findReferences } from './references.js';

/** A deposit of the account the statement is for, as the matcher sees it. */
export interface DepositForMatching {
  transactionId: string;
  number: number;
  state: 'awaiting_payment' | 'payment_reported' | 'expired' | 'approved';
  amountKurus: bigint;
  /** Customer's full name and, when the caller gave one, the sender's name. */
  names: string[];
  createdAtMs: number;
  expiresAtMs: number;
  /** Already matched to a statement line. */
  matched: boolean;
}

export interface LineForMatching {
  lineId: string;
  direction: 'credit' | 'debit';
  amountKurus: bigint;
  bookedOn: string;
  bookedAt?: string;
  description: string;
  counterpartyName?: string;
}

export interface Assessment {
  lineId: string;
  candidates: MatchCandidate[];
  differences: LineDifference[];
  /** The candidate this line may be matched to without a person (candidates[0]), if any. */
  strong?: MatchCandidate;
}

const DAY_MS = 86_400_000;
const CLOCK_SKEW_MS = 5 * 60_000;
/** Without a reference, a payment this long after expiry is still looked for (late, an operator decides). */
const LATE_GRACE_MS = 2 * 3_600_000;
/** Deposits looked at on each side when only the amount is known. */
const NEAREST_SCAN = 64;
const MAX_CANDIDATES = 5;
const STRONG_NAME = 0.9;
const CONTRADICTING_NAME = 0.5;
const STRONG_NAME_REASONS = new Set([
  'sender name matches',
  'sender name matches (initials or a middle name)',
  'customer name in the description',
]);
/** A same-amount deposit whose customer the line does not name at all (no sender name given either). */
const NO_NAME_REASON = 'customer not named on the line';

/**
 * Finds, for each credit line, the open deposits it may pay, in time linear in lines + deposits:
 * deposits are indexed once by number (the `TG-<id>` reference), by amount and by name, and each
 * line looks up only its own keys.
 *
 * A candidate is **strong** (may be matched without a person) only when there is no doubt: one
 * reference naming a deposit of this account that is open and in time, with the exact amount and a
 * sender name that does not contradict the customer's; or, without any reference, exactly one
 * open deposit in the time window with the exact amount and the customer's name (every word, any
 * order) as the sender or in the description. A deposit is strong for at most one line of an
 * import (file order); a later line naming it sees it as paid twice. Anything else waits for an
 * operator, with its candidates, scores and reasons.
 */
export class Matcher {
  private readonly byNumber = new Map<number, DepositForMatching>();
  /** Per amount, sorted by creation time: the nearest ones are shown when no name narrows the line. */
  private readonly byAmount = new Map<bigint, DepositForMatching[]>();
  /** `amount|name word` → deposits: a line looks up only the words it carries, never a whole amount's bucket. */
  private readonly byAmountWord = new Map<string, DepositForMatching[]>();
  private readonly byName = new Map<string, DepositForMatching[]>();
  private readonly tokens = new Map<string, string[][]>();
  /** Deposits given to a line of this import already. */
  private readonly taken = new Set<string>();

  constructor(deposits: Iterable<DepositForMatching>) {
    for (const d of deposits) {
      this.byNumber.set(d.number, d);
      push(this.byAmount, d.amountKurus, d);
      const names = d.names.map(nameTokens).filter((t) => t.length > 0);
      this.tokens.set(d.transactionId, names);
      for (const n of names) push(this.byName, nameKey(n), d);
      for (const word of new Set(names.flat()))
        if (word.length >= 2) push(this.byAmountWord, `${d.amountKurus}|${word}`, d);
    }
    for (const list of this.byAmount.values()) list.sort((a, b) => a.createdAtMs - b.createdAtMs);
  }

  assess(line: LineForMatching): Assessment {
    if (line.direction !== 'credit') return { lineId: line.lineId, candidates: [], differences: [] };
    const sender = nameTokens(line.counterpartyName);
    const text = new Set(foldTurkish(line.description).split(' '));
    const whenMs = line.bookedAt ? Date.parse(line.bookedAt) : undefined;
    const found = new Map<string, MatchCandidate>();
    const references = findReferences(line.description);

    for (const n of references) {
      const d = this.byNumber.get(n);
      if (!d) continue;
      found.set(d.transactionId, this.candidate(d, line, sender, text, whenMs, `reference TG-${n} in the description`));
    }
    if (found.size === 0) {
      // Same amount and a word of the customer's name in the sender (or, without one, the description).
      const words = (sender.length > 0 ? sender : [...text]).filter((w) => w.length >= 2 && !/^\d+$/.test(w));
      for (const word of new Set(words)) {
        for (const d of this.byAmountWord.get(`${line.amountKurus}|${word}`) ?? []) {
          if (found.has(d.transactionId) || !this.inWindow(d, line, whenMs)) continue;
          found.set(d.transactionId, this.candidate(d, line, sender, text, whenMs, undefined));
        }
      }
      if (sender.length > 0) {
        for (const d of this.byName.get(nameKey(sender)) ?? []) {
          if (found.has(d.transactionId) || !this.inWindow(d, line, whenMs)) continue;
          found.set(d.transactionId, this.candidate(d, line, sender, text, whenMs, undefined));
        }
      }
      if (found.size === 0) {
        for (const d of this.nearestSameAmount(line, whenMs)) {
          found.set(d.transactionId, this.candidate(d, line, sender, text, whenMs, undefined));
        }
      }
    }
    const candidates = [...found.values()].sort((a, b) => b.score - a.score || a.number - b.number);
    const strong = this.pickStrong(candidates, references.length);
    if (strong) {
      this.taken.add(strong.transactionId);
      strong.strong = true;
    }
    const top = candidates.slice(0, MAX_CANDIDATES);
    return {
      lineId: line.lineId,
      candidates: top,
      differences: top.length === 0 ? ['unknown_credit'] : top[0]!.differences,
      ...(strong ? { strong } : {}),
    };
  }

  private pickStrong(candidates: MatchCandidate[], referenceCount: number): MatchCandidate | undefined {
    const clean = candidates.filter((c) => c.differences.length === 0);
    if (referenceCount > 0) {
      // One reference, one deposit, nothing different.
      if (referenceCount !== 1 || candidates.length !== 1 || clean.length !== 1) return undefined;
      return clean[0];
    }
    // Without a reference: the one same-amount deposit whose customer the sender (or the description)
    // names; every other same-amount deposit in the window must have a customer the line does not name.
    const named = clean.filter((c) => c.reasons.some((r) => STRONG_NAME_REASONS.has(r)));
    const sameAmount = candidates.filter(
      (c) => !c.differences.includes('paid_less') && !c.differences.includes('paid_more'),
    );
    if (named.length !== 1) return undefined;
    const others = sameAmount.filter((c) => c !== named[0]);
    if (others.some((c) => !c.differences.includes('third_party') && !c.reasons.includes(NO_NAME_REASON))) {
      return undefined;
    }
    return named[0];
  }

  /**
   * Without a reference a deposit is a candidate from a few minutes before its request (bank clocks)
   * until a while after its expiry; a date-only line, on the Turkish days that span overlaps.
   */
  private inWindow(d: DepositForMatching, line: LineForMatching, whenMs: number | undefined): boolean {
    if (d.state === 'approved' && d.matched) return false;
    if (whenMs !== undefined) return whenMs >= d.createdAtMs - CLOCK_SKEW_MS && whenMs <= d.expiresAtMs + LATE_GRACE_MS;
    const day = Date.parse(`${line.bookedOn}T00:00:00+03:00`);
    return day + DAY_MS > d.createdAtMs && day <= d.expiresAtMs + LATE_GRACE_MS;
  }

  /** Up to MAX_CANDIDATES same-amount deposits in the window nearest in time (binary search, bounded scan). */
  private nearestSameAmount(line: LineForMatching, whenMs: number | undefined): DepositForMatching[] {
    const list = this.byAmount.get(line.amountKurus);
    if (!list) return [];
    const at = whenMs ?? Date.parse(`${line.bookedOn}T12:00:00+03:00`);
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.createdAtMs <= at) lo = mid + 1;
      else hi = mid;
    }
    const out: DepositForMatching[] = [];
    for (let step = 0, left = lo - 1, right = lo; step < NEAREST_SCAN && out.length < MAX_CANDIDATES; step++) {
      const d = step % 2 === 0 ? list[left--] : list[right++];
      if (d && this.inWindow(d, line, whenMs)) out.push(d);
    }
    return out;
  }

  private candidate(
    d: DepositForMatching,
    line: LineForMatching,
    sender: string[],
    text: Set<string>,
    whenMs: number | undefined,
    referenceReason: string | undefined,
  ): MatchCandidate {
    const reasons: string[] = [];
    const differences: LineDifference[] = [];
    let score = 0;
    if (referenceReason) {
      reasons.push(referenceReason);
      score += 60;
    }
    if (d.matched || this.taken.has(d.transactionId)) {
      differences.push('paid_twice');
      reasons.push(`TG-${d.number} is matched to another line already`);
    } else if (d.state === 'approved') {
      reasons.push(`TG-${d.number} was approved by hand before this line`);
    }
    const late = d.state === 'expired' || (whenMs !== undefined && whenMs > d.expiresAtMs);
    if (late && d.state !== 'approved') {
      differences.push('paid_after_expiry');
      reasons.push('paid after the deposit expired');
    }
    if (line.amountKurus === d.amountKurus) {
      reasons.push('amount equal');
      score += referenceReason ? 25 : 50;
    } else {
      differences.push(line.amountKurus < d.amountKurus ? 'paid_less' : 'paid_more');
      reasons.push(`amount differs by ${formatKurus(line.amountKurus - d.amountKurus)} TRY`);
    }
    const names = this.tokens.get(d.transactionId) ?? [];
    const best = Math.max(0, ...names.map((n) => nameScore(sender, n)));
    const inText = names.some((n) => nameInText(n, text));
    if (sender.length > 0 && best >= STRONG_NAME) {
      reasons.push(best === 1 ? 'sender name matches' : 'sender name matches (initials or a middle name)');
      score += 15;
    } else if (inText) {
      reasons.push('customer name in the description');
      score += 15;
    } else if (sender.length > 0 && best < CONTRADICTING_NAME) {
      differences.push('third_party');
      reasons.push('sender name differs from the customer');
    } else if (sender.length > 0) {
      reasons.push('sender name partly matches');
      score += 5;
    } else {
      reasons.push(NO_NAME_REASON);
    }
    if (whenMs !== undefined && whenMs >= d.createdAtMs) {
      const minutes = Math.round((whenMs - d.createdAtMs) / 60_000);
      reasons.push(`paid ${minutes} min after the request`);
    }
    return {
      transactionId: d.transactionId,
      number: d.number,
      score: Math.min(100, score),
      reasons,
      differences,
      strong: false,
    };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function formatKurus(kurus: bigint): string {
  const sign = kurus < 0n ? '-' : '+';
  const abs = kurus < 0n ? -kurus : kurus;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}
