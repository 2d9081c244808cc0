import { createHmac, randomBytes } from 'node:crypto';
import { newDataKey, type KeyProvider } from '@transfergate/security';
import type { SqlDatabase } from '../sql/sql-database.js';

/**
 * The customers' data keys, in the store's own database (backed up and restored with the events:
 * docs/decisions/0067-personal-data.md). A key row holds its data key wrapped by the master key;
 * erasing a customer sets the wrapped key to null, and then nothing can read the fields it
 * encrypted, wherever they were copied. A customer (subject) is named by an HMAC of its identity
 * text under the subject-index key (pd_keyring), so the table names nobody in clear.
 *
 * One live key per subject (a partial unique index); a subject that comes back after an erasure
 * gets a new key, and its erased fields stay erased.
 */
export const PERSONAL_DATA_SCHEMA = `
create table if not exists pd_data_keys (
  key_ref text primary key,
  subject_id text not null,
  wrapped_key text,
  master_key_id text,
  created_at timestamptz not null default now(),
  erased_at timestamptz,
  erasure_reason text,
  erased_by text,
  check ((wrapped_key is null) = (erased_at is not null))
);
create unique index if not exists pd_data_keys_live on pd_data_keys (subject_id) where erased_at is null;
create index if not exists pd_data_keys_subject on pd_data_keys (subject_id);
-- Retention (docs/decisions/0067-personal-data.md): when a key last encrypted a field, for which
-- merchants, each merchant's period when it is not the default, and the subjects on legal hold.
alter table pd_data_keys add column if not exists last_written_at timestamptz not null default now();
create table if not exists pd_key_merchants (
  key_ref text not null,
  merchant_id text not null,
  primary key (key_ref, merchant_id)
);
create table if not exists pd_retention (
  merchant_id text primary key,
  years integer not null check (years between 1 and 100)
);
create table if not exists pd_legal_holds (
  subject_id text primary key,
  reason text not null,
  placed_by text not null,
  placed_at timestamptz not null default now()
);
create table if not exists pd_keyring (
  name text primary key,
  wrapped_key text not null,
  master_key_id text not null
);
`;

/** Unwrapped data keys one process keeps (TIGER_STYLE bound: 32 bytes and a few strings each). */
export const MAX_CACHED_DATA_KEYS = 50_000;
/**
 * How long a cached key is trusted: an erasure in another process is honoured by this one within it
 * (this process's own erasures evict at once).
 */
export const DATA_KEY_CACHE_TTL_MS = 60_000;
/** Keys re-wrapped per statement by a master-key rotation. */
export const REWRAP_BATCH_KEYS = 500;
/** Most subjects one retention pass lists (it runs again for the rest). */
export const MAX_RETENTION_SUBJECTS = 1_000;
/** Most key refs one read asks the database for at once. */
export const MAX_KEY_REFS_PER_LOOKUP = 10_000;

const SUBJECT_INDEX_KEY = 'subject-index';

/** A field's key ref names no key of this database: the key table was not restored with the events. */
export class DataKeyMissingError extends Error {
  constructor(readonly keyRefs: readonly string[]) {
    super(
      `no data key ${keyRefs.slice(0, 3).join(', ')}${keyRefs.length > 3 ? ` (and ${keyRefs.length - 3} more)` : ''} ` +
        'in pd_data_keys: restore the key table with the events it belongs to',
    );
    this.name = 'DataKeyMissingError';
  }
}

/** What a read gets for a key ref: the data key, or the fact that its customer was erased. */
export type ReadKey = Buffer | 'erased';

interface Cached<V> {
  value: V;
  untilMs: number;
}

/** A map with a size bound and an age bound; the least recently used entry leaves first. */
export class BoundedKeyCache<V> {
  private readonly entries = new Map<string, Cached<V>>();

  constructor(
    readonly maxEntries: number,
    readonly ttlMs: number,
    private readonly nowMs: () => number = Date.now,
  ) {
    if (!(maxEntries > 0) || !(ttlMs > 0)) throw new RangeError('a key cache has room and an age limit');
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.untilMs <= this.nowMs()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, untilMs: this.nowMs() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

export interface SubjectKeysOptions {
  maxCachedKeys?: number;
  cacheTtlMs?: number;
}

export interface ErasedSubject {
  subjectId: string;
  erasedAt: string;
  reason: string;
  erasedBy: string;
}

/** The key table of one database, through one KeyProvider. */
export class SubjectKeys {
  private readonly writeKeys: BoundedKeyCache<{ keyRef: string; key: Buffer; merchants: Set<string> }>;
  private readonly readKeys: BoundedKeyCache<ReadKey>;
  /** Identity text → subject id (an HMAC per event was a fifth of an encryption). */
  private readonly subjectIds: BoundedKeyCache<string>;

  private constructor(
    private readonly db: SqlDatabase,
    private readonly provider: KeyProvider,
    private readonly subjectIndexKey: Buffer,
    options: SubjectKeysOptions,
  ) {
    const max = options.maxCachedKeys ?? MAX_CACHED_DATA_KEYS;
    const ttl = options.cacheTtlMs ?? DATA_KEY_CACHE_TTL_MS;
    this.writeKeys = new BoundedKeyCache(max, ttl);
    this.readKeys = new BoundedKeyCache(max, ttl);
    this.subjectIds = new BoundedKeyCache(max, ttl);
  }

  /** Creates the tables when absent and opens the subject-index key (a wrong master key fails here). */
  static async open(db: SqlDatabase, provider: KeyProvider, options: SubjectKeysOptions = {}): Promise<SubjectKeys> {
    await db.exec(PERSONAL_DATA_SCHEMA);
    const wrapped = await provider.wrap(newDataKey());
    await db.query(
      `insert into pd_keyring (name, wrapped_key, master_key_id) values ($1, $2, $3) on conflict (name) do nothing`,
      [SUBJECT_INDEX_KEY, wrapped, provider.keyId],
    );
    const { rows } = await db.query<{ wrapped_key: string }>(`select wrapped_key from pd_keyring where name = $1`, [
      SUBJECT_INDEX_KEY,
    ]);
    const indexKey = await provider.unwrap(rows[0]!.wrapped_key);
    return new SubjectKeys(db, provider, indexKey, options);
  }

  get masterKeyId(): string {
    return this.provider.keyId;
  }

  /** The pseudonym of a customer's identity text (subjectIdentity in libs/contracts). */
  subjectIdOf(identity: string): string {
    const cached = this.subjectIds.get(identity);
    if (cached !== undefined) return cached;
    const subjectId = createHmac('sha256', this.subjectIndexKey).update(identity, 'utf8').digest('hex').slice(0, 32);
    this.subjectIds.set(identity, subjectId);
    return subjectId;
  }

  /**
   * The live key of a subject, made when it has none (an erased subject gets a new one). A lookup
   * that misses the cache (at least once per DATA_KEY_CACHE_TTL_MS while a subject writes) records
   * the write's time, and every merchant written for is recorded once: the retention's inputs.
   */
  async keyForWrite(subjectId: string, merchantId?: string): Promise<{ keyRef: string; key: Buffer }> {
    const cached = this.writeKeys.get(subjectId);
    if (cached) {
      if (merchantId !== undefined && !cached.merchants.has(merchantId)) {
        await this.recordMerchant(cached.keyRef, merchantId);
        cached.merchants.add(merchantId);
      }
      return cached;
    }
    let live = await this.liveKey(subjectId);
    if (!live) {
      const keyRef = randomBytes(16).toString('hex');
      await this.db.query(
        `insert into pd_data_keys (key_ref, subject_id, wrapped_key, master_key_id) values ($1, $2, $3, $4)
         on conflict (subject_id) where erased_at is null do nothing`,
        [keyRef, subjectId, await this.provider.wrap(newDataKey()), this.provider.keyId],
      );
      live = await this.liveKey(subjectId);
    } else {
      await this.db.query(`update pd_data_keys set last_written_at = now() where key_ref = $1`, [live.keyRef]);
    }
    if (!live) throw new Error(`personal data invariant: subject ${subjectId} has no live key after making one`);
    const entry = { ...live, merchants: new Set<string>() };
    if (merchantId !== undefined) {
      await this.recordMerchant(live.keyRef, merchantId);
      entry.merchants.add(merchantId);
    }
    this.writeKeys.set(subjectId, entry);
    this.readKeys.set(live.keyRef, live.key);
    return live;
  }

  private async recordMerchant(keyRef: string, merchantId: string): Promise<void> {
    await this.db.query(`insert into pd_key_merchants (key_ref, merchant_id) values ($1, $2) on conflict do nothing`, [
      keyRef,
      merchantId,
    ]);
  }

  /** A merchant's retention period, when its contract asks for another than the default. */
  async setRetentionYears(merchantId: string, years: number): Promise<void> {
    if (!Number.isInteger(years) || years < 1 || years > 100)
      throw new RangeError('a retention period is 1 to 100 years');
    await this.db.query(
      `insert into pd_retention (merchant_id, years) values ($1, $2)
       on conflict (merchant_id) do update set years = excluded.years`,
      [merchantId, years],
    );
  }

  /** A legal hold: the retention never erases the subject while it stands. */
  async placeLegalHold(subjectId: string, by: { reason: string; placedBy: string }): Promise<void> {
    if (by.reason.trim() === '' || by.placedBy.trim() === '') throw new Error('a legal hold has a reason and an actor');
    await this.db.query(
      `insert into pd_legal_holds (subject_id, reason, placed_by) values ($1, $2, $3)
       on conflict (subject_id) do update set reason = excluded.reason, placed_by = excluded.placed_by`,
      [subjectId, by.reason, by.placedBy],
    );
  }

  async liftLegalHold(subjectId: string): Promise<boolean> {
    const { rows } = await this.db.query(`delete from pd_legal_holds where subject_id = $1 returning subject_id`, [
      subjectId,
    ]);
    return rows.length > 0;
  }

  /**
   * Subjects whose live key last encrypted a field longer ago than the retention period: the
   * longest of its merchants' periods (`defaultYears` for a merchant without its own, and for a key
   * written for no merchant), and no legal hold. At most `limit`, with their key refs.
   */
  async subjectsPastRetention(
    now: Date,
    defaultYears: number,
    limit: number = MAX_RETENTION_SUBJECTS,
  ): Promise<Array<{ subjectId: string; keyRef: string; lastWrittenAt: string }>> {
    if (!Number.isInteger(defaultYears) || defaultYears < 1) throw new RangeError('a retention period is whole years');
    const { rows } = await this.db.query<{ subject_id: string; key_ref: string; last_written_at: string }>(
      `select k.subject_id, k.key_ref, k.last_written_at::text as last_written_at
         from pd_data_keys k
         left join pd_key_merchants m on m.key_ref = k.key_ref
         left join pd_retention r on r.merchant_id = m.merchant_id
        where k.erased_at is null
          and not exists (select 1 from pd_legal_holds h where h.subject_id = k.subject_id)
        group by k.subject_id, k.key_ref, k.last_written_at
       having k.last_written_at + make_interval(years => max(coalesce(r.years, $2::int))) < $1::timestamptz
        order by k.subject_id limit $3`,
      [now.toISOString(), defaultYears, Math.min(limit, MAX_RETENTION_SUBJECTS)],
    );
    return rows.map((r) => ({ subjectId: r.subject_id, keyRef: r.key_ref, lastWrittenAt: r.last_written_at }));
  }

  private async liveKey(subjectId: string): Promise<{ keyRef: string; key: Buffer } | undefined> {
    const { rows } = await this.db.query<{ key_ref: string; wrapped_key: string }>(
      `select key_ref, wrapped_key from pd_data_keys where subject_id = $1 and erased_at is null`,
      [subjectId],
    );
    const row = rows[0];
    return row ? { keyRef: row.key_ref, key: await this.provider.unwrap(row.wrapped_key) } : undefined;
  }

  /** The keys of these refs; a ref with no row at all is DataKeyMissingError, never a silent skip. */
  async keysForRead(keyRefs: Iterable<string>): Promise<Map<string, ReadKey>> {
    const found = new Map<string, ReadKey>();
    const wanted: string[] = [];
    for (const ref of new Set(keyRefs)) {
      const cached = this.readKeys.get(ref);
      if (cached) found.set(ref, cached);
      else wanted.push(ref);
    }
    for (let start = 0; start < wanted.length; start += MAX_KEY_REFS_PER_LOOKUP) {
      const refs = wanted.slice(start, start + MAX_KEY_REFS_PER_LOOKUP);
      const { rows } = await this.db.query<{ key_ref: string; wrapped_key: string | null }>(
        `select key_ref, wrapped_key from pd_data_keys where key_ref = any($1::text[])`,
        [refs],
      );
      for (const row of rows) {
        const key: ReadKey = row.wrapped_key === null ? 'erased' : await this.provider.unwrap(row.wrapped_key);
        found.set(row.key_ref, key);
        this.readKeys.set(row.key_ref, key);
      }
      const missing = refs.filter((ref) => !found.has(ref));
      if (missing.length > 0) throw new DataKeyMissingError(missing);
    }
    return found;
  }

  /**
   * Destroys every key of a subject (crypto-shredding): its fields read as erased from then on, in
   * events, backups taken afterwards and every copy made from them. Returns the keys destroyed.
   */
  async erase(
    subjectId: string,
    by: { reason: string; erasedBy: string },
    /** Only a key not written since (a retention pass: a customer who wrote meanwhile keeps it). */
    guard?: { lastWrittenAt: string },
  ): Promise<number> {
    if (by.reason.trim() === '' || by.erasedBy.trim() === '') throw new Error('an erasure has a reason and an actor');
    const { rows } = await this.db.query<{ key_ref: string }>(
      `update pd_data_keys set wrapped_key = null, master_key_id = null, erased_at = now(),
              erasure_reason = $2, erased_by = $3
        where subject_id = $1 and erased_at is null
          and ($4::timestamptz is null or last_written_at <= $4::timestamptz) returning key_ref`,
      [subjectId, by.reason, by.erasedBy, guard?.lastWrittenAt ?? null],
    );
    this.writeKeys.delete(subjectId);
    for (const row of rows) this.readKeys.set(row.key_ref, 'erased');
    return rows.length;
  }

  /** How many subjects have no live key and at least one erased one. */
  async erasedSubjectCount(): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      `select count(distinct subject_id)::text as n from pd_data_keys k where erased_at is not null
          and not exists (select 1 from pd_data_keys l where l.subject_id = k.subject_id and l.erased_at is null)`,
    );
    return Number(rows[0]!.n);
  }

  /** Subjects with no live key and at least one erased one (the replay reports them), at most `limit`. */
  async erasedSubjects(limit: number): Promise<ErasedSubject[]> {
    if (!(limit > 0)) throw new RangeError('a listing of erased subjects has a bound');
    const { rows } = await this.db.query<{ subject_id: string; erased_at: string; reason: string; erased_by: string }>(
      `select distinct on (subject_id) subject_id,
              to_char(erased_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as erased_at,
              erasure_reason as reason, erased_by
         from pd_data_keys k
        where erased_at is not null
          and not exists (select 1 from pd_data_keys l where l.subject_id = k.subject_id and l.erased_at is null)
        order by subject_id, k.erased_at desc limit $1`,
      [limit],
    );
    return rows.map((r) => ({
      subjectId: r.subject_id,
      erasedAt: r.erased_at,
      reason: r.reason,
      erasedBy: r.erased_by,
    }));
  }

  /**
   * Master-key rotation: re-wraps every live key (and the subject-index key) made with another
   * master key under `next`, in batches; the events are not touched. The provider this instance was
   * opened with must open the old wrapped keys (RotatingKeyProvider when some were re-wrapped already).
   */
  async rewrapAll(next: KeyProvider): Promise<number> {
    let rewrapped = 0;
    for (;;) {
      const { rows } = await this.db.query<{ key_ref: string; wrapped_key: string; master_key_id: string }>(
        `select key_ref, wrapped_key, master_key_id from pd_data_keys
          where erased_at is null and master_key_id <> $1 order by key_ref limit $2`,
        [next.keyId, REWRAP_BATCH_KEYS],
      );
      if (rows.length === 0) break;
      const refs: string[] = [];
      const wrapped: string[] = [];
      for (const row of rows) {
        refs.push(row.key_ref);
        wrapped.push(await next.wrap(await this.provider.unwrap(row.wrapped_key)));
      }
      await this.db.query(
        `update pd_data_keys k set wrapped_key = n.wrapped, master_key_id = $3
           from unnest($1::text[], $2::text[]) as n(key_ref, wrapped)
          where k.key_ref = n.key_ref and k.erased_at is null`,
        [refs, wrapped, next.keyId],
      );
      rewrapped += rows.length;
    }
    const { rows } = await this.db.query<{ name: string; wrapped_key: string }>(
      `select name, wrapped_key from pd_keyring where master_key_id <> $1`,
      [next.keyId],
    );
    for (const row of rows) {
      await this.db.query(`update pd_keyring set wrapped_key = $2, master_key_id = $3 where name = $1`, [
        row.name,
        await next.wrap(await this.provider.unwrap(row.wrapped_key)),
        next.keyId,
      ]);
    }
    return rewrapped;
  }
}
