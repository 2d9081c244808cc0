import type { RecordedEvent } from '@transfergate/event-store';
import {
  balanceOf,
  emptyLedger,
  foldMoreEvents,
  type MerchantBalance,
  type MerchantLedger,
} from '../domain/merchant-ledger.js';

/** Merchants whose folded ledger is held; a full set is emptied before the next one goes in. */
export const MAX_FOLDED_MERCHANT_LEDGERS = 10_000;

/**
 * Each merchant's ledger as last folded, at its stream version. A withdrawal's request and every
 * move of its reservation need the merchant's balance, and its ledger stream grows by an event per
 * approved deposit: folding it whole on every load would make a withdrawal cost time in proportion to
 * the merchant's history (10 requests/s at 3,000 events, measured). A stream's events
 * never change, so the fold of its first versions stays true: a load reads only the events after
 * the held version, from the store, and is exactly the whole stream's fold. It holds no answer of
 * its own: every load reads the stream's tail, so a write from another process is seen the same.
 *
 * The held fold is moved in place and a load answers a copy of its balance (and of the one
 * reservation asked about), not of the fold: the fold holds every open reservation of the
 * merchant, and copying it on every load would make each withdrawal and approval cost time in proportion
 * to the withdrawals still open.
 */
export class MerchantLedgerFolds {
  private readonly folds = new Map<string, MerchantLedger>();

  constructor(private readonly maxMerchants = MAX_FOLDED_MERCHANT_LEDGERS) {}

  /**
   * The merchant's balance at its stream's last event or later (a load that ran beside this one
   * may have folded further; every version answered is one the stream had), with the open
   * reservation of `transactionId` if asked. `readFrom` reads the stream from a version on.
   */
  async load(
    merchantId: string,
    readFrom: (fromVersion: number) => Promise<readonly RecordedEvent[]>,
    transactionId?: string,
  ): Promise<MerchantBalance> {
    const before = this.folds.get(merchantId);
    const tail = await readFrom((before?.version ?? 0) + 1);
    // Loads of one merchant run side by side: another one may have moved the held fold meanwhile
    // (what it folded is skipped here) or, after an eviction, put a fold in its place that this
    // tail may not continue.
    const current = this.folds.get(merchantId);
    const ledger = current && current.version >= (before?.version ?? 0) ? current : (before ?? emptyLedger(merchantId));
    const first = tail.findIndex((event) => event.streamVersion > ledger.version);
    if (first >= 0) foldMoreEvents(ledger, first === 0 ? tail : tail.slice(first));
    // Keep whichever fold reached the furthest version (an empty stream is not worth an entry).
    const latest = this.folds.get(merchantId);
    if (ledger !== latest && ledger.version > (latest?.version ?? 0)) {
      if (!latest && this.folds.size >= this.maxMerchants) this.folds.clear();
      this.folds.set(merchantId, ledger);
    }
    return balanceOf(ledger, transactionId);
  }

  /** Merchants held (tests). */
  get size(): number {
    return this.folds.size;
  }
}
