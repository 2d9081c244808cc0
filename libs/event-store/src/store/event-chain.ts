import {
  CHAIN_ENCODING,
  GENESIS_HASH_HEX,
  HASH_HEX_LENGTH,
  chainHashHex,
  hashEncodedHex,
  type ChainedEventFields,
  type EncodedEvents,
} from './chain-encoding.js';

/*
 * The hash chain in SQL (the append and the backfill compute it there) and its verifier. The
 * canonical encoding both follow is defined in chain-encoding.ts.
 */

/** SQL printing a timestamptz the way the canonical encoding wants it. */
export function recordedAtSql(timestamptz: string): string {
  return `to_char((${timestamptz}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** SQL expressions of the hashed fields; each must evaluate to the stored value. */
export interface ChainSqlFields {
  streamId: string;
  streamVersion: string;
  type: string;
  schemaVersion: string;
  eventId: string;
  recordedAt: string;
  data: string;
  metadata: string;
}

/** The same canonical encoding in SQL (bytea), for the append and the backfill. */
export function canonicalEventSql(f: ChainSqlFields): string {
  const nl = `E'\\n'`;
  const prefixed = (text: string) => `octet_length(${text})::text || ':' || ${text}`;
  return `convert_to('${CHAIN_ENCODING}' || ${nl} || ${prefixed(`(${f.streamId})`)} || ${nl} || (${f.streamVersion})::text
    || ${nl} || ${prefixed(`(${f.type})`)} || ${nl} || (${f.schemaVersion})::text || ${nl} || (${f.eventId})::uuid::text
    || ${nl} || ${recordedAtSql(f.recordedAt)} || ${nl} || ${prefixed(`(${f.data})::text`)} || ${nl}
    || (${f.metadata})::text, 'UTF8')`;
}

export const GENESIS_HASH_SQL = `'\\x${GENESIS_HASH_HEX}'::bytea`;

/**
 * The chain over one append's payload (`$3`, the JSON array built by appendOne) as a scalar
 * expression giving the last event's hash: `previous` is the stream's head before the append and
 * `baseVersion` the stream version before it. Events are numbered by their position in the payload.
 * A single event (the common append) needs no recursion.
 */
export function payloadChainHeadSql(previous: string, baseVersion: string, eventCount: number): string {
  if (eventCount === 1) {
    return `sha256(coalesce(${previous}, ${GENESIS_HASH_SQL}) || ${payloadEventSql(`(${baseVersion}) + 1`, `($3::jsonb->0)`)})`;
  }
  return `(with recursive ev as (select e, ord from jsonb_array_elements($3::jsonb) with ordinality as t(e, ord)),
      chain(ord, hash) as (
        select 0::bigint, coalesce(${previous}, ${GENESIS_HASH_SQL})
        union all
        select ev.ord, sha256(chain.hash || ${payloadEventSql(`(${baseVersion}) + ev.ord::int`)})
        from chain join ev on ev.ord = chain.ord + 1)
      select hash from chain order by ord desc limit 1)`;
}

/** Canonical encoding of payload element `element` at `version` (the append's recorded time is now()). */
export function payloadEventSql(version: string, element = 'ev.e'): string {
  return canonicalEventSql({
    streamId: '$1::text',
    streamVersion: version,
    type: `${element}->>'type'`,
    schemaVersion: `(${element}->>'v')::int`,
    eventId: `${element}->>'id'`,
    recordedAt: 'now()',
    data: `${element}->'data'`,
    metadata: `${element}->'meta'`,
  });
}

/** Canonical encoding of a stored es_events row aliased `alias`. */
export function storedEventSql(alias: string): string {
  return canonicalEventSql({
    streamId: `${alias}.stream_id`,
    streamVersion: `${alias}.stream_version`,
    type: `${alias}.type`,
    schemaVersion: `${alias}.schema_version`,
    eventId: `${alias}.event_id`,
    recordedAt: `${alias}.created_at`,
    data: `${alias}.data`,
    metadata: `${alias}.metadata`,
  });
}

/** What the chain check reads of an event whose hash input is already encoded (EncodedEvents). */
export interface LinkedEvent {
  streamId: string;
  streamVersion: number;
  eventId: string;
  position: { commitXid: string; seq: string };
  /** Stored hash, hex; null for an event that never got one. */
  hash: string | null;
}

/** A stored event as the audit reader returns it: the hashed fields as text, plus where it sits. */
export interface AuditedEvent extends ChainedEventFields, LinkedEvent {}

export interface BrokenLink {
  streamId: string;
  streamVersion: number;
  eventId: string;
  position: { commitXid: string; seq: string };
  reason: 'hash_mismatch' | 'hash_missing' | 'version_gap' | 'head_mismatch';
  expected: string;
  actual: string;
}

/** What the verifier holds of a stream: its last version seen and that event's stored hash (hex, as carried on). */
export interface StreamSeen {
  version: number;
  hashHex: string;
}

/** What the verifier holds of a stream: StreamSeen, and when it was last seen or put back (evictOldest). */
interface HeldStream extends StreamSeen {
  seenAt: number;
}

/** A stream's recorded head (es_streams), as the head check reads it. */
export interface RecordedHead {
  streamId: string;
  version: number;
  headHash: string | null;
}

/** The head check's findings: broken heads, and streams recorded ahead of what was read (told apart later). */
export interface HeadFindings {
  broken: BrokenLink[];
  unseen: Array<{ streamId: string; seenVersion: number; recordedVersion: number }>;
}

/**
 * Checks chains while events stream past in global order (which is version order per stream). A
 * broken event is reported once; the chain then continues from its stored hash, so an edited event
 * names itself and not every event after it.
 *
 * It holds one StreamSeen per stream (about 225 bytes with its key). A caller that bounds that
 * (audit/bounded-chain-check.ts) hands the least recently seen out with `evictOldest` and puts them
 * back with `restore` before the stream's next event.
 */
export class ChainVerifier {
  /** Per stream: the last version seen and its stored hash (hex; GENESIS_HASH_HEX when it had none). */
  private readonly heads = new Map<string, HeldStream>();
  private checked = 0;
  /** Counts every event accepted and every stream restored: each stream's `seenAt` is unique. */
  private recency = 0;

  /**
   * Checks the next event of the pass. `encoded` (with the event's `index` in it) is its page's
   * encoding (chain-encoding.ts, EncodedEvents): the hash is then taken in place instead of
   * encoding the event again.
   */
  accept(event: AuditedEvent): BrokenLink | undefined;
  accept(event: LinkedEvent, encoded: EncodedEvents, index: number): BrokenLink | undefined;
  accept(event: AuditedEvent | LinkedEvent, encoded?: EncodedEvents, index = 0): BrokenLink | undefined {
    this.checked += 1;
    let head = this.heads.get(event.streamId);
    const previousHex = head?.hashHex ?? GENESIS_HASH_HEX;
    const expectedVersion = (head?.version ?? 0) + 1;
    // The stored hash is carried on, broken or not, so an edited event names itself only.
    const storedHex = event.hash === null ? GENESIS_HASH_HEX : event.hash.toLowerCase();
    // A stored value that is no hash at all (wrong length) is reported below and chains on as genesis.
    const carriedHex = storedHex.length === HASH_HEX_LENGTH ? storedHex : GENESIS_HASH_HEX;
    if (head) {
      head.version = event.streamVersion;
      head.hashHex = carriedHex;
      head.seenAt = ++this.recency;
    } else {
      head = { version: event.streamVersion, hashHex: carriedHex, seenAt: ++this.recency };
      this.heads.set(event.streamId, head);
    }
    const link = (reason: BrokenLink['reason'], expected: string, actual: string): BrokenLink => ({
      streamId: event.streamId,
      streamVersion: event.streamVersion,
      eventId: event.eventId,
      position: event.position,
      reason,
      expected,
      actual,
    });
    if (event.streamVersion !== expectedVersion) {
      return link('version_gap', `version ${expectedVersion}`, `version ${event.streamVersion}`);
    }
    const computed = encoded
      ? hashEncodedHex(previousHex, encoded, index)
      : chainHashHex(previousHex, event as AuditedEvent);
    if (event.hash === null) return link('hash_missing', computed, 'null');
    if (storedHex !== computed) return link('hash_mismatch', computed, event.hash);
    return undefined;
  }

  get eventsChecked(): number {
    return this.checked;
  }

  /** Streams held now. */
  get streamsHeld(): number {
    return this.heads.size;
  }

  holds(streamId: string): boolean {
    return this.heads.has(streamId);
  }

  /** Every stream held, in no particular order (the bounded check writes them out at the end). */
  held(): IterableIterator<[string, StreamSeen]> {
    return this.heads.entries();
  }

  /**
   * Hands out and forgets the `count` least recently seen streams. What a stream's next event is
   * checked against must be put back first (`restore`).
   * Recency is each stream's `seenAt`, sorted here once per eviction: keeping the Map itself in
   * recency order (a delete and a set per event) would make every event of a spilling replay cost about
   * 5 µs more at a bound of 100,000 streams.
   */
  evictOldest(count: number): Array<[string, StreamSeen]> {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`evictOldest: a count, got ${count}`);
    if (count === 0) return [];
    const seenAts = new Float64Array(this.heads.size);
    let i = 0;
    for (const head of this.heads.values()) seenAts[i++] = head.seenAt;
    // The newest `seenAt` that goes (each stream's is unique).
    const lastOut = seenAts.sort()[Math.min(count, seenAts.length) - 1]!;
    const evicted: Array<[string, StreamSeen]> = [];
    for (const entry of this.heads) if (entry[1].seenAt <= lastOut) evicted.push(entry);
    if (evicted.length !== Math.min(count, seenAts.length)) throw new Error('evictOldest: two streams seen at once');
    for (const [streamId] of evicted) this.heads.delete(streamId);
    return evicted;
  }

  /** Puts back a stream handed out by evictOldest, as the most recently seen. */
  restore(streamId: string, seen: StreamSeen): void {
    if (this.heads.has(streamId)) throw new Error(`restore: stream ${streamId} is held already`);
    this.heads.set(streamId, { version: seen.version, hashHex: seen.hashHex, seenAt: ++this.recency });
  }

  /**
   * Compares the streams' recorded heads (es_streams) with what the events gave. A stream whose
   * recorded version is ahead of what was read is either still being written (its events exist now)
   * or lost its tail: `unseen` lists those for the caller to tell apart (countEventsAfter).
   * Given a page of the heads at a time, each page's findings go `into` the same findings.
   */
  checkHeads(heads: Iterable<RecordedHead>, into: HeadFindings = { broken: [], unseen: [] }): HeadFindings {
    for (const h of heads) classifyHead(h, this.heads.get(h.streamId), into);
    return into;
  }
}

/** One recorded head against what the pass saw of its stream (nothing: never seen), into `findings`. */
export function classifyHead(h: RecordedHead, seen: StreamSeen | undefined, findings: HeadFindings): void {
  const seenVersion = seen?.version ?? 0;
  const seenHash = seen?.hashHex ?? null;
  if (h.version > seenVersion) {
    findings.unseen.push({ streamId: h.streamId, seenVersion, recordedVersion: h.version });
  } else if (h.version < seenVersion || (h.version > 0 && seenHash !== h.headHash)) {
    findings.broken.push(
      headMismatch(h.streamId, h.version, `version ${h.version} head ${h.headHash ?? 'null'}`, seenVersion, seenHash),
    );
  }
}

export function headMismatch(
  streamId: string,
  recordedVersion: number,
  expected: string,
  seenVersion: number,
  seenHash: string | null,
): BrokenLink {
  return {
    streamId,
    streamVersion: recordedVersion,
    eventId: '',
    position: { commitXid: '0', seq: '0' },
    reason: 'head_mismatch',
    expected,
    actual: `version ${seenVersion} head ${seenHash ?? 'null'}`,
  };
}
