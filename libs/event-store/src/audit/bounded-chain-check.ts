import { ENCODED_OFFSETS, type EncodedEvents } from '../store/chain-encoding.js';
import {
  ChainVerifier,
  type AuditedEvent,
  type BrokenLink,
  type HeadFindings,
  type LinkedEvent,
  type RecordedHead,
} from '../store/event-chain.js';
import type { StreamHeadSpill } from './stream-head-spill.js';

/**
 * Every recorded stream head, a page at a time (audit-reader.ts streamHeadPages): the table at once
 * would hold one row per stream ever made beside the streams the check holds.
 */
export type ReadHeadPages = () => AsyncIterable<readonly RecordedHead[]>;

/**
 * Streams a chain check holds by default: about 225 MB of heap (one StreamSeen and its key each,
 * docs/auditing.md, "Replay"). Every transaction is a stream, so without a bound the check's memory grew with
 * the store.
 */
export const DEFAULT_MAX_STREAM_HEADS = 1_000_000;

/** A spill and what ends it (its table, and its connection when it has one of its own). */
export interface OpenedSpill {
  spill: StreamHeadSpill;
  close(): Promise<void>;
}

/**
 * ChainVerifier with a bound on the streams it holds. Past `maxStreams`, after a page, the least
 * recently seen go to a spill (stream-head-spill.ts): a tenth of the bound at a time, so a spilling
 * pass writes once per many pages. Before each later page, the page's streams that are not held
 * are looked up there and put back, so every event is checked against exactly what an unbounded
 * verifier would have held; at the end the held ones are written out too and the recorded heads
 * are checked by a join in the database. Below the bound nothing differs from ChainVerifier's work:
 * no lookup, no write, no connection. It holds at most `maxStreams` plus the streams of one page.
 */
export class BoundedChainCheck {
  private readonly verifier = new ChainVerifier();
  private opened: OpenedSpill | undefined;
  private spilledAny = false;

  constructor(
    private readonly maxStreams: number,
    private readonly openSpill: () => Promise<OpenedSpill>,
  ) {
    if (!Number.isInteger(maxStreams) || maxStreams < 1) {
      throw new RangeError(`maxStreamHeads must be a positive integer, got ${maxStreams}`);
    }
  }

  get eventsChecked(): number {
    return this.verifier.eventsChecked;
  }

  get streamsHeld(): number {
    return this.verifier.streamsHeld;
  }

  /** Whether streams went to the spill (the head check then runs in the database); stays true after close. */
  get spilled(): boolean {
    return this.spilledAny;
  }

  /**
   * Checks one page, in global order; each broken link goes to `onBroken` with its index in the page.
   * `encoded`: the page's encoding (chain-encoding.ts, EncodedEvents), hashed in place.
   */
  async checkPage(rows: readonly AuditedEvent[], onBroken: (link: BrokenLink, index: number) => void): Promise<void>;
  async checkPage(
    rows: readonly LinkedEvent[],
    onBroken: (link: BrokenLink, index: number) => void,
    encoded: EncodedEvents,
  ): Promise<void>;
  async checkPage(
    rows: readonly (AuditedEvent | LinkedEvent)[],
    onBroken: (link: BrokenLink, index: number) => void,
    encoded?: EncodedEvents,
  ): Promise<void> {
    if (encoded && encoded.offsets.length !== rows.length * ENCODED_OFFSETS) {
      throw new RangeError('bounded chain check: the encoding is of another page');
    }
    if (this.opened) await this.putBack(rows, this.opened.spill);
    for (let index = 0; index < rows.length; index++) {
      const link = encoded
        ? this.verifier.accept(rows[index]!, encoded, index)
        : this.verifier.accept(rows[index] as AuditedEvent);
      if (link) onBroken(link, index);
    }
    if (this.verifier.streamsHeld > this.maxStreams) {
      this.opened ??= await this.openSpill();
      this.spilledAny = true;
      const keep = this.maxStreams - Math.floor(this.maxStreams / 10);
      await this.opened.spill.write(this.verifier.evictOldest(this.verifier.streamsHeld - keep));
      if (this.verifier.streamsHeld !== keep) throw new Error('bounded chain check: the eviction missed its mark');
    }
  }

  /**
   * ChainVerifier.checkHeads over every recorded head, a page at a time; `readHeads` is called only
   * when nothing was spilled (the spill checks them by a join in the database).
   */
  async checkHeads(readHeads: ReadHeadPages): Promise<HeadFindings> {
    if (!this.opened) {
      const findings: HeadFindings = { broken: [], unseen: [] };
      for await (const page of readHeads()) this.verifier.checkHeads(page, findings);
      return findings;
    }
    await this.opened.spill.write(this.verifier.held());
    return this.opened.spill.checkHeads();
  }

  /** Ends the spill, if one was opened (idempotent). */
  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    await opened?.close();
  }

  private async putBack(rows: readonly LinkedEvent[], spill: StreamHeadSpill): Promise<void> {
    const missing = new Set<string>();
    for (const row of rows) if (!this.verifier.holds(row.streamId)) missing.add(row.streamId);
    if (missing.size === 0) return;
    for (const [streamId, seen] of await spill.lookup([...missing])) this.verifier.restore(streamId, seen);
  }
}

/** A check with nowhere to put streams past its bound fails there, never runs on unbounded. */
export function cannotSpill(maxStreamHeads: number): () => Promise<OpenedSpill> {
  return () =>
    Promise.reject(
      new Error(
        `more than ${maxStreamHeads} streams, and no database on this thread to hold the rest (maxStreamHeads)`,
      ),
    );
}
