import type { GlobalPosition, SqlExecutor } from '@transfergate/event-store';
import { turkishDay } from '../domain/turkish-day.js';
import type { DepositContextView } from '../ports/deposit-contexts.js';
import type { DepositContextEffects } from './projector.js';
import {
  accountTakesAmount,
  bankRank,
  withinDailyLimit,
  type AccountLimits,
} from '../decisions/receiving-account.decide.js';

/** Bound on cached records: a store with more merchants or accounts decides deposits from SQL. */
export const MAX_CACHED_RECORDS = 100_000;

/**
 * Bound on deposits answered ahead of the projection (noteAhead): past it a deposit's answer waits
 * for the projection again, so a stalled projection slows deposits down instead of growing this.
 */
export const MAX_AHEAD_DEPOSITS = 10_000;

/** A deposit this process answered before the projection applied it: its share of its account's day. */
interface AheadDeposit {
  key: string;
  amountKurus: bigint;
  position: GlobalPosition;
}

interface CachedAccount {
  active: boolean;
  record: Record<string, unknown>;
}

/**
 * An in-memory mirror of the three read models a new deposit is decided from (rm_merchants,
 * rm_bank_accounts, rm_bank_account_daily), so the deposit hot path reads nothing. It is loaded in
 * one statement (one snapshot, together with the projection's checkpoint) and then moved only by
 * the projection's own committed batches (their DepositContextEffects), each applied before the
 * batch's waiters are released: a command answered after a merchant or account change has been
 * projected finds the change here too, exactly as it would in the tables.
 *
 * The batches form a chain (each continues the checkpoint the previous one left); a batch that does
 * not continue the mirror's position means batches were missed (the lease was lost and taken back):
 * the mirror drops itself and loads again. While loading, batches are kept and replayed on top of
 * the loaded snapshot.
 */
export class DepositContextCache implements DepositContextView {
  private state: 'empty' | 'loading' | 'live' = 'empty';
  private position: GlobalPosition = { commitXid: '0', seq: '0' };
  private merchants = new Map<string, unknown>();
  private accounts = new Map<string, CachedAccount>();
  /** `bankAccountId|day` → issued kuruş of that Turkish business day. */
  private daily = new Map<string, bigint>();
  private buffered: Array<{ from: GlobalPosition; last: GlobalPosition; effects: DepositContextEffects }> = [];
  private loads = 0;
  /**
   * Deposits answered before the projection applied them (by transaction id), and their sums per
   * `bankAccountId|day`: counted on top of `daily` until a committed batch passes their position.
   */
  private readonly ahead = new Map<string, AheadDeposit>();
  private readonly aheadDaily = new Map<string, bigint>();

  constructor(private readonly consumerName: string) {}

  /** Live and exactly at `projected` (the projection's position in this process). */
  isCurrentAt(projected: GlobalPosition): boolean {
    return this.state === 'live' && samePosition(this.position, projected);
  }

  get loadCount(): number {
    return this.loads;
  }

  /**
   * A deposit this process answers before the projection has applied it (its row was written with
   * its event): its amount counts in its account's day from now on, so the very next deposit is
   * decided as if the projection had applied it, until a committed batch passes `position` (the
   * tables then hold it). False when that cannot be kept (the mirror is not live, or too many are
   * ahead): the caller then waits for the projection instead. `day` is the day the deposit was
   * decided on; its event's recorded time can fall on the next day only in the milliseconds around
   * midnight, and the projection counts it there once applied.
   */
  noteAhead(
    transactionId: string,
    bankAccountId: string,
    day: string,
    amountKurus: bigint,
    position: GlobalPosition,
  ): boolean {
    if (this.state !== 'live' || this.ahead.size >= MAX_AHEAD_DEPOSITS) return false;
    // Already applied by a batch (the projection got there first): the daily volume has it.
    if (!isAfter(position, this.position)) return true;
    if (this.ahead.has(transactionId)) return true;
    const key = `${bankAccountId}|${day}`;
    this.ahead.set(transactionId, { key, amountKurus, position });
    this.aheadDaily.set(key, (this.aheadDaily.get(key) ?? 0n) + amountKurus);
    return true;
  }

  /** Whether this deposit was answered ahead of the projection (its row written with its event). */
  isAhead(transactionId: string): boolean {
    return this.ahead.has(transactionId);
  }

  /** The newest position answered ahead of the projection, if any is still ahead. */
  get aheadUntil(): GlobalPosition | undefined {
    let newest: GlobalPosition | undefined;
    for (const deposit of this.ahead.values())
      if (!newest || isAfter(deposit.position, newest)) newest = deposit.position;
    return newest;
  }

  /** Deposits answered ahead that the read models hold now (everything up to `projected`). */
  dropAheadUpTo(projected: GlobalPosition): void {
    for (const [transactionId, deposit] of this.ahead) {
      if (isAfter(deposit.position, projected)) continue;
      this.ahead.delete(transactionId);
      const left = (this.aheadDaily.get(deposit.key) ?? 0n) - deposit.amountKurus;
      if (left === 0n) this.aheadDaily.delete(deposit.key);
      else this.aheadDaily.set(deposit.key, left);
    }
  }

  /** A committed projection batch (call in batch order, before its waiters are released). */
  onBatch(from: GlobalPosition, last: GlobalPosition, effects: DepositContextEffects): void {
    // Whatever the mirror's state, the tables now hold every deposit up to `last`.
    this.dropAheadUpTo(last);
    if (this.state === 'loading') {
      this.buffered.push({ from, last, effects });
      return;
    }
    if (this.state === 'live' && samePosition(from, this.position)) {
      this.apply(effects);
      this.position = last;
      return;
    }
    this.state = 'empty';
  }

  /** Loads the snapshot unless live or loading; never throws (a failed load leaves the cache empty). */
  async ensureLoaded(db: SqlExecutor): Promise<void> {
    if (this.state !== 'empty') return;
    this.state = 'loading';
    this.buffered = [];
    try {
      const { rows } = await db.query<{
        merchants: Array<{ k: string; r: unknown }> | null;
        accounts: Array<{ k: string; a: boolean; r: Record<string, unknown> }> | null;
        daily: Array<{ k: string; d: string; n: string }> | null;
        counts: number;
        xid: string | null;
        seq: string | null;
      }>(
        `select
           (select jsonb_agg(jsonb_build_object('k', merchant_id, 'r', record)) from rm_merchants) as merchants,
           (select jsonb_agg(jsonb_build_object('k', bank_account_id, 'a', active, 'r', record)) from rm_bank_accounts)
             as accounts,
           (select jsonb_agg(jsonb_build_object('k', bank_account_id, 'd', day::text, 'n', issued_kurus::text))
            from rm_bank_account_daily where day >= ((now() at time zone 'UTC') + interval '3 hours')::date - 1) as daily,
           (select count(*) from rm_merchants)::int + (select count(*) from rm_bank_accounts)::int as counts,
           (select commit_xid::text from es_checkpoints where consumer = $1) as xid,
           (select seq::text from es_checkpoints where consumer = $1) as seq`,
        [this.consumerName],
      );
      const row = rows[0]!;
      if (row.counts > MAX_CACHED_RECORDS || row.xid === null || row.seq === null) {
        this.state = 'empty';
        return;
      }
      this.merchants = new Map((row.merchants ?? []).map((m) => [m.k, m.r]));
      this.accounts = new Map((row.accounts ?? []).map((a) => [a.k, { active: a.a, record: a.r }]));
      this.daily = new Map((row.daily ?? []).map((d) => [`${d.k}|${d.d}`, BigInt(d.n)]));
      this.position = { commitXid: row.xid, seq: row.seq };
      this.loads++;
      // Batches committed while the snapshot was read: those it already includes are skipped.
      for (const batch of this.buffered) {
        if (!isAfter(batch.last, this.position)) continue;
        if (!samePosition(batch.from, this.position)) {
          this.state = 'empty';
          return;
        }
        this.apply(batch.effects);
        this.position = batch.last;
      }
      this.state = 'live';
    } catch {
      this.state = 'empty';
    } finally {
      this.buffered = [];
    }
  }

  merchantRecord(merchantId: string): unknown {
    return this.merchants.get(merchantId);
  }

  pickAccount(amountKurus: bigint, preferredBankCode: string | undefined, today: string): unknown {
    // SQL: order by (bankCode = preferred) desc nulls last, issued asc, random(). With no preferred
    // code every comparison is null, so only the volume orders.
    let best: CachedAccount[] = [];
    let bestRank = -1;
    let bestIssued = 0n;
    for (const [id, account] of this.accounts) {
      if (!account.active) continue;
      const r = account.record as unknown as AccountLimits;
      if (!accountTakesAmount(r, amountKurus)) continue;
      const day = `${id}|${today}`;
      const issued = (this.daily.get(day) ?? 0n) + (this.aheadDaily.get(day) ?? 0n);
      if (!withinDailyLimit(r, issued, amountKurus)) continue;
      const rank = bankRank(r, preferredBankCode);
      if (rank > bestRank || (rank === bestRank && issued < bestIssued)) {
        best = [account];
        bestRank = rank;
        bestIssued = issued;
      } else if (rank === bestRank && issued === bestIssued) {
        best.push(account);
      }
    }
    if (best.length === 0) return undefined;
    return best[Math.floor(Math.random() * best.length)]!.record;
  }

  private apply(effects: DepositContextEffects): void {
    for (const change of effects.records) {
      if (change.table === 'rm_merchants') this.merchants.set(change.key, change.record);
      else
        this.accounts.set(change.key, {
          active: change.active ?? false,
          record: change.record as Record<string, unknown>,
        });
    }
    for (const d of effects.daily) {
      const key = `${d.bankAccountId}|${d.day}`;
      this.daily.set(key, (this.daily.get(key) ?? 0n) + d.deltaKurus);
    }
    if (this.daily.size > 4 * (this.accounts.size + 1)) this.pruneDays();
  }

  /** Days before yesterday are never asked for again. */
  private pruneDays(): void {
    const yesterday = turkishDay(Date.now() - 86_400_000);
    for (const key of this.daily.keys()) if (key.slice(key.lastIndexOf('|') + 1) < yesterday) this.daily.delete(key);
  }
}

function samePosition(a: GlobalPosition, b: GlobalPosition): boolean {
  return a.commitXid === b.commitXid && a.seq === b.seq;
}

function isAfter(a: GlobalPosition, b: GlobalPosition): boolean {
  const xa = BigInt(a.commitXid);
  const xb = BigInt(b.commitXid);
  return xa > xb || (xa === xb && BigInt(a.seq) > BigInt(b.seq));
}
