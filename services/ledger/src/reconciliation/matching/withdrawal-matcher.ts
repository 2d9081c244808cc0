import type { LineDifference, MatchCandidate } from '@transfergate/contracts';
import { nameScore, nameTokens } from './names.js';
import { findReferences } from './references.js';
import type { Assessment, LineForMatching } from './matcher.js';

/** An approved withdrawal of the gateway, as the debit-line matcher sees it. */
export interface WithdrawalForMatching {
  transactionId: string;
  number: number;
  amountKurus: bigint;
  iban: string;
  name: string;
  approvedAtMs: number;
  matched: boolean;
}

/** A payment leaves the account from a little before the approval is recorded to a few days after. */
const BEFORE_APPROVAL_MS = 3_600_000;
const AFTER_APPROVAL_MS = 4 * 86_400_000;

/**
 * Debit lines of a statement against the approved withdrawals they pay out: by the `TG-<id>` the
 * payment file writes into the description, else by amount + the beneficiary's IBAN (or name) in the
 * time window; indexed by number and by amount. Strong (linked without a person, no money moves:
 * the withdrawal is approved already): one reference with the exact amount and no contradicting
 * IBAN, or no reference and exactly one same-amount withdrawal in the window paid to that IBAN.
 */
export class WithdrawalMatcher {
  private readonly byNumber = new Map<number, WithdrawalForMatching>();
  private readonly byAmount = new Map<bigint, WithdrawalForMatching[]>();
  private readonly taken = new Set<string>();

  constructor(withdrawals: Iterable<WithdrawalForMatching>) {
    for (const w of withdrawals) {
      this.byNumber.set(w.number, w);
      const list = this.byAmount.get(w.amountKurus);
      if (list) list.push(w);
      else this.byAmount.set(w.amountKurus, [w]);
    }
  }

  assess(line: LineForMatching & { counterpartyIban?: string }): Assessment {
    const whenMs = line.bookedAt ? Date.parse(line.bookedAt) : Date.parse(`${line.bookedOn}T12:00:00+03:00`);
    const references = findReferences(line.description);
    const found = new Map<string, MatchCandidate>();
    for (const n of references) {
      const w = this.byNumber.get(n);
      if (w) found.set(w.transactionId, this.candidate(w, line, true));
    }
    if (found.size === 0) {
      for (const w of this.byAmount.get(line.amountKurus) ?? []) {
        if (whenMs < w.approvedAtMs - BEFORE_APPROVAL_MS || whenMs > w.approvedAtMs + AFTER_APPROVAL_MS) continue;
        if (line.counterpartyIban && line.counterpartyIban !== w.iban) continue;
        found.set(w.transactionId, this.candidate(w, line, false));
      }
    }
    const candidates = [...found.values()].sort((a, b) => b.score - a.score || a.number - b.number).slice(0, 5);
    const clean = candidates.filter((c) => c.differences.length === 0);
    const strongOk =
      references.length > 0
        ? references.length === 1 && candidates.length === 1 && clean.length === 1
        : Boolean(line.counterpartyIban) && candidates.length === 1 && clean.length === 1;
    const strong = strongOk ? clean[0] : undefined;
    if (strong) {
      strong.strong = true;
      this.taken.add(strong.transactionId);
    }
    return {
      lineId: line.lineId,
      candidates,
      // A debit nobody asked for (fees, taxes) has no difference to decide: it simply has no candidate.
      differences: candidates.length === 0 ? [] : candidates[0]!.differences,
      ...(strong ? { strong } : {}),
    };
  }

  private candidate(
    w: WithdrawalForMatching,
    line: LineForMatching & { counterpartyIban?: string },
    byReference: boolean,
  ): MatchCandidate {
    const reasons: string[] = [];
    const differences: LineDifference[] = [];
    let score = 0;
    if (byReference) {
      reasons.push(`reference TG-${w.number} in the description`);
      score += 60;
    }
    if (w.matched || this.taken.has(w.transactionId)) {
      differences.push('paid_twice');
      reasons.push(`TG-${w.number} is matched to another line already`);
    }
    if (line.amountKurus === w.amountKurus) {
      reasons.push('amount equal');
      score += byReference ? 25 : 50;
    } else {
      differences.push(line.amountKurus < w.amountKurus ? 'paid_less' : 'paid_more');
      reasons.push('amount differs');
    }
    if (line.counterpartyIban) {
      if (line.counterpartyIban === w.iban) {
        reasons.push('beneficiary IBAN equal');
        score += 15;
      } else {
        differences.push('third_party');
        reasons.push('beneficiary IBAN differs');
      }
    } else if (line.counterpartyName && nameScore(nameTokens(line.counterpartyName), nameTokens(w.name)) >= 0.9) {
      reasons.push('beneficiary name matches');
      score += 10;
    }
    return {
      transactionId: w.transactionId,
      number: w.number,
      score: Math.min(100, score),
      reasons,
      differences,
      strong: false,
    };
  }
}
