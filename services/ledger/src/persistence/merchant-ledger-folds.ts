import type { RecordedEvent } from '@transfergate/event-store';
import { copyLedger, emptyLedger, foldMoreEvents, type MerchantLedger } from '../domain/merchant-ledger.js';

/** Merchants whose folded ledger is held; a full set is emptied before the next one goes in. */
export const MAX_FOLDED_MERCHANT_LEDGERS = 10_000;

/**
 * Each merchant's ledger as last folded, at its stream version. A withdrawal's request and every
 * move of its reservation need the merchant's balance, and its ledger stream grows by an event per
 * approved deposit: folding it whole on every load made a withdrawal cost time in proportion to
 * the merchant's history (10 requests/s at 3,000 events, README "Benchmark"). A stream's events
 * never change, so the fold of its first versions stays true: a load reads only the events after
 * the held version, from the store, and is exactly the whole stream's fold. It holds no answer of
 * its own: every load reads the stream's tail, so a write from another process is seen the same.
 */
export class MerchantLedgerFolds {
  private readonly folds = new Map<string, MerchantLedger>();

  constructor(private readonly maxMerchants = MAX_FOLDED_MERCHANT_LEDGERS) {}

  /** The merchant's ledger up to its stream's last event; `readFrom` reads the stream from a version on. */
  async load(
    merchantId: string,
    readFrom: (fromVersion: number) => Promise<readonly RecordedEvent[]>,
  ): Promise<MerchantLedger> {
    const held = this.folds.get(merchantId);
    const tail = await readFrom((held?.version ?? 0) + 1);
    // Folded into a copy: the held fold is shared by the loads in flight, and a fold that fails
    // (an event it cannot apply) leaves it as it was.
    const ledger = foldMoreEvents(held ? copyLedger(held) : emptyLedger(merchantId), tail);
    // Loads of one merchant run side by side: keep whichever reached the furthest version (an
    // empty stream is not worth an entry).
    const latest = this.folds.get(merchantId);
    if (ledger.version > (latest?.version ?? 0)) {
      if (!latest && this.folds.size >= this.maxMerchants) this.folds.clear();
      this.folds.set(merchantId, ledger);
    }
    // The caller's own copy: nothing it does reaches the held fold.
    return copyLedger(ledger);
  }

  /** Merchants held (tests). */
  get size(): number {
    return this.folds.size;
  }
}
