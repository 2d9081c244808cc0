import { Inject, Injectable } from '@nestjs/common';
import type { LineDifference, MatchCandidate, ReconciliationSummary, StatementLineView } from '@transfergate/contracts';
import { SQL_DATABASE, type GlobalPosition, type SqlDatabase } from '@transfergate/event-store';
import { LedgerProjectionRunner } from '../read-models/projection.runner.js';
import type { DepositForMatching } from './matching/matcher.js';
import type { WithdrawalForMatching } from './matching/withdrawal-matcher.js';

/** Ids per query when asking which lines exist: one JSON parameter of a few hundred KB at most. */
const ID_CHUNK = 10_000;
/** Expired and approved deposits this long before the statement's first day are still candidates. */
const LOOKBACK_DAYS = 7;

export interface StreamHead {
  version: number;
  position?: GlobalPosition;
}

export interface MatchDeposit extends DepositForMatching {
  infrastructureId: string;
}

/** The reconciliation's reads: the statement stream's head and the read models it decides on. */
@Injectable()
export class ReconciliationStore {
  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    private readonly projection: LedgerProjectionRunner,
  ) {}

  /**
   * The stream's version, after the read models have applied everything in it: decisions read the
   * lines' state from the read models, so they must not run behind the stream they append to.
   */
  async head(streamId: string): Promise<StreamHead> {
    const { rows } = await this.db.query<{ version: number; xid: string; seq: string }>(
      `select stream_version as version, xid::text as xid, seq::text as seq from es_events
       where stream_id = $1 order by stream_version desc limit 1`,
      [streamId],
    );
    const last = rows[0];
    if (!last) return { version: 0 };
    const position = { commitXid: last.xid, seq: last.seq };
    await this.projection.awaitProjected(position);
    return { version: Number(last.version), position };
  }

  async existingLineIds(lineIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < lineIds.length; i += ID_CHUNK) {
      const { rows } = await this.db.query<{ id: string }>(
        `select line_id::text as id from rm_statement_lines
         where line_id in (select jsonb_array_elements_text($1::jsonb)::uuid)`,
        [JSON.stringify(lineIds.slice(i, i + ID_CHUNK))],
      );
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  /** The account's open deposits, and its recent expired and approved ones (late and double payments). */
  async depositsForMatching(bankAccountId: string, firstDay: string): Promise<MatchDeposit[]> {
    const since = new Date(Date.parse(`${firstDay}T00:00:00+03:00`) - LOOKBACK_DAYS * 86_400_000).toISOString();
    const { rows } = await this.db.query<{
      transaction_id: string;
      number: string;
      state: DepositForMatching['state'];
      amount_kurus: string;
      customer: { fullName?: string; senderName?: string };
      infrastructure_id: string;
      created_ms: string;
      expires_ms: string | null;
      matched: boolean;
    }>(
      `select t.transaction_id::text, t.number::text, t.state, t.amount_kurus::text, t.customer, t.infrastructure_id,
              (extract(epoch from t.created_at) * 1000)::bigint::text as created_ms,
              (extract(epoch from t.expires_at) * 1000)::bigint::text as expires_ms,
              (m.transaction_id is not null) as matched
       from rm_transactions t
       left join (select distinct transaction_id from rm_statement_line_status
                  where state = 'matched' and bank_account_id = $1) m on m.transaction_id = t.transaction_id
       where t.bank_account_id = $1 and t.type = 'deposit'
         and (t.state in ('awaiting_payment', 'payment_reported')
              or (t.state in ('expired', 'approved') and t.created_at >= $2::timestamptz))`,
      [bankAccountId, since],
    );
    return rows.map((r) => ({
      transactionId: r.transaction_id,
      number: Number(r.number),
      state: r.state,
      amountKurus: BigInt(r.amount_kurus),
      names: [r.customer.fullName, r.customer.senderName].filter((n): n is string => Boolean(n)),
      createdAtMs: Number(r.created_ms),
      expiresAtMs: r.expires_ms === null ? Number.MAX_SAFE_INTEGER : Number(r.expires_ms),
      matched: r.matched,
      infrastructureId: r.infrastructure_id,
    }));
  }

  /** Approved withdrawals since a moment (a debit line pays one out), with whether a line claims each. */
  async withdrawalsForMatching(firstDay: string): Promise<WithdrawalForMatching[]> {
    const since = new Date(Date.parse(`${firstDay}T00:00:00+03:00`) - LOOKBACK_DAYS * 86_400_000).toISOString();
    const { rows } = await this.db.query<{
      transaction_id: string;
      number: string;
      amount_kurus: string;
      iban: string;
      name: string | null;
      approved_ms: string;
      matched: boolean;
    }>(
      `select t.transaction_id::text, t.number::text, t.amount_kurus::text, t.iban, t.customer->>'fullName' as name,
              (extract(epoch from t.updated_at) * 1000)::bigint::text as approved_ms,
              exists (select 1 from rm_statement_line_status s
                      where s.transaction_id = t.transaction_id and s.state = 'matched') as matched
       from rm_transactions t
       where t.type = 'withdrawal' and t.state = 'approved' and t.iban is not null and t.updated_at >= $1::timestamptz`,
      [since],
    );
    return rows.map((r) => ({
      transactionId: r.transaction_id,
      number: Number(r.number),
      amountKurus: BigInt(r.amount_kurus),
      iban: r.iban.replace(/\s+/g, '').toUpperCase(),
      name: r.name ?? '',
      approvedAtMs: Number(r.approved_ms),
      matched: r.matched,
    }));
  }

  async autoApproveInfrastructures(): Promise<Set<string>> {
    const { rows } = await this.db.query<{ id: string }>(
      `select infrastructure_id as id from rm_reconciliation_settings where auto_approve`,
    );
    return new Set(rows.map((r) => r.id));
  }

  async matchedLineOf(transactionId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ id: string }>(
      `select line_id::text as id from rm_statement_line_status where transaction_id = $1 and state = 'matched'`,
      [transactionId],
    );
    return rows[0]?.id;
  }

  /** Which of these lines are still queued (undecided), in one read. */
  async queuedLineIds(lineIds: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.db.query<{ id: string }>(
      `select line_id::text as id from rm_statement_line_status
       where state = 'queued' and line_id in (select jsonb_array_elements_text($1::jsonb)::uuid)`,
      [JSON.stringify(lineIds)],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Lines by id, in one read (an import's automatic matches): the lines not found are absent. */
  async linesByIds(lineIds: readonly string[]): Promise<Map<string, StatementLineView>> {
    const { rows } = await this.db.query<{ line: LineRecord; status: StatusRecord; transaction_id: string | null }>(
      `select l.record as line, s.record as status, s.transaction_id::text as transaction_id
       from rm_statement_lines l join rm_statement_line_status s on s.line_id = l.line_id
       where l.line_id in (select jsonb_array_elements_text($1::jsonb)::uuid)`,
      [JSON.stringify(lineIds)],
    );
    const views = rows.map((row) => toView(row.line, row.status, row.transaction_id));
    return new Map(views.map((view) => [view.lineId, view]));
  }

  /** The line each of these transactions is matched to, in one read (transactions without one are absent). */
  async matchedLinesOf(transactionIds: readonly string[]): Promise<Map<string, string>> {
    const { rows } = await this.db.query<{ txn: string; id: string }>(
      `select transaction_id::text as txn, line_id::text as id from rm_statement_line_status
       where state = 'matched' and transaction_id in (select jsonb_array_elements_text($1::jsonb)::uuid)`,
      [JSON.stringify(transactionIds)],
    );
    return new Map(rows.map((r) => [r.txn, r.id]));
  }

  /** One line by id: the list's own read without its count (every decision reads its line). */
  async line(lineId: string): Promise<StatementLineView | undefined> {
    const { rows } = await this.db.query<{ line: LineRecord; status: StatusRecord; transaction_id: string | null }>(
      `select l.record as line, s.record as status, s.transaction_id::text as transaction_id
       from rm_statement_lines l join rm_statement_line_status s on s.line_id = l.line_id
       where l.line_id = $1::uuid`,
      [lineId],
    );
    const row = rows[0];
    return row ? toView(row.line, row.status, row.transaction_id) : undefined;
  }

  async lines(filter: {
    lineId?: string;
    from?: string;
    to?: string;
    bankAccountId?: string;
    state?: string;
    direction?: string;
    limit: number;
    offset: number;
  }): Promise<{ items: StatementLineView[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.lineId) add('l.line_id = ?::uuid', filter.lineId);
    if (filter.bankAccountId) add('l.bank_account_id = ?', filter.bankAccountId);
    if (filter.state) add('s.state = ?', filter.state);
    if (filter.direction) add('l.direction = ?', filter.direction);
    if (filter.from) add('l.booked_on >= ?::date', filter.from);
    if (filter.to) add('l.booked_on <= ?::date', filter.to);
    const clause = where.length > 0 ? `where ${where.join(' and ')}` : '';
    const { rows: counted } = await this.db.query<{ n: string }>(
      `select count(*)::text as n from rm_statement_lines l join rm_statement_line_status s on s.line_id = l.line_id ${clause}`,
      params,
    );
    const { rows } = await this.db.query<{ line: LineRecord; status: StatusRecord; transaction_id: string | null }>(
      `select l.record as line, s.record as status, s.transaction_id::text as transaction_id
       from rm_statement_lines l join rm_statement_line_status s on s.line_id = l.line_id ${clause}
       order by l.booked_on desc, l.record->>'bookedAt' desc nulls last, l.line_id
       limit ${Number(filter.limit)} offset ${Number(filter.offset)}`,
      params,
    );
    return { total: Number(counted[0]!.n), items: rows.map((r) => toView(r.line, r.status, r.transaction_id)) };
  }
}

/** Sums of one account over Turkish days [from, to] (see ReconciliationSummary). */
export async function summaryOf(
  db: SqlDatabase,
  bankAccountId: string,
  from: string,
  to: string,
): Promise<ReconciliationSummary> {
  const { rows: l } = await db.query<Record<string, string>>(
    `select coalesce(sum(l.amount_kurus) filter (where l.direction = 'credit'), 0)::text as credits,
            coalesce(sum(l.amount_kurus) filter (where l.direction = 'debit'), 0)::text as debits,
            count(*) filter (where l.direction = 'credit')::text as credit_lines,
            coalesce(sum(l.amount_kurus) filter (where l.direction = 'credit' and s.state = 'matched'), 0)::text as matched,
            coalesce(sum(l.amount_kurus) filter (where l.direction = 'credit' and s.state = 'dismissed'), 0)::text as dismissed,
            coalesce(sum(l.amount_kurus) filter (where l.direction = 'credit' and s.state = 'queued'), 0)::text as queued,
            count(*) filter (where l.direction = 'credit' and s.state = 'queued')::text as queued_lines
     from rm_statement_lines l join rm_statement_line_status s on s.line_id = l.line_id
     where l.bank_account_id = $1 and l.booked_on between $2::date and $3::date`,
    [bankAccountId, from, to],
  );
  const { rows: d } = await db.query<Record<string, string>>(
    `select coalesce(sum(t.amount_kurus), 0)::text as issued, count(*)::text as issued_n,
            coalesce(sum(t.amount_kurus) filter (where t.state = 'approved'), 0)::text as approved,
            count(*) filter (where t.state = 'approved')::text as approved_n,
            coalesce(sum(t.amount_kurus) filter (where t.state = 'approved' and m.transaction_id is null), 0)::text as bare,
            count(*) filter (where t.state = 'approved' and m.transaction_id is null)::text as bare_n
     from rm_transactions t
     left join (select distinct transaction_id from rm_statement_line_status where state = 'matched') m
       on m.transaction_id = t.transaction_id
     where t.bank_account_id = $1 and t.type = 'deposit'
       and ((t.created_at at time zone 'UTC') + interval '3 hours')::date between $2::date and $3::date`,
    [bankAccountId, from, to],
  );
  const { rows: b } = await db.query<{ opening: string | null; closing: string | null }>(
    `select (select record->>'openingBalanceKurus' from rm_statement_imports
             where bank_account_id = $1 and record ? 'openingBalanceKurus' and record->>'firstDay' between $2 and $3
             order by record->>'firstDay', record->>'importedAt' limit 1) as opening,
            (select record->>'closingBalanceKurus' from rm_statement_imports
             where bank_account_id = $1 and record ? 'closingBalanceKurus' and record->>'lastDay' between $2 and $3
             order by record->>'lastDay' desc, record->>'importedAt' desc limit 1) as closing`,
    [bankAccountId, from, to],
  );
  const x = l[0]!;
  const y = d[0]!;
  return {
    bankAccountId,
    from,
    to,
    statement: {
      ...(b[0]?.opening ? { openingBalanceKurus: b[0].opening } : {}),
      ...(b[0]?.closing ? { closingBalanceKurus: b[0].closing } : {}),
      creditsKurus: x['credits']!,
      debitsKurus: x['debits']!,
      creditLines: Number(x['credit_lines']),
    },
    matchedKurus: x['matched']!,
    dismissedKurus: x['dismissed']!,
    unmatchedKurus: x['queued']!,
    unmatchedLines: Number(x['queued_lines']),
    deposits: {
      issuedKurus: y['issued']!,
      issued: Number(y['issued_n']),
      approvedKurus: y['approved']!,
      approved: Number(y['approved_n']),
      approvedWithoutLineKurus: y['bare']!,
      approvedWithoutLine: Number(y['bare_n']),
    },
  };
}

/** A line as imported: the view without what decisions add. */
type LineRecord = Omit<StatementLineView, 'state' | 'differences' | 'candidates' | 'transactionId' | 'number'>;

interface StatusRecord {
  state: 'queued' | 'matched' | 'dismissed';
  candidates?: MatchCandidate[];
  differences: LineDifference[];
  number?: number;
  decision?: string;
  mode?: 'auto' | 'operator';
  reason?: string;
  decidedBy?: string;
  decidedAt?: string;
}

function toView(line: LineRecord, status: StatusRecord, transactionId: string | null): StatementLineView {
  const view: StatementLineView = {
    lineId: line.lineId,
    bankAccountId: line.bankAccountId,
    importId: line.importId,
    bookedOn: line.bookedOn,
    direction: line.direction,
    amountKurus: line.amountKurus,
    description: line.description,
    state: status.state,
    differences: status.differences ?? [],
    candidates: status.candidates ?? [],
  };
  const optional = {
    bankReference: line.bankReference,
    bookedAt: line.bookedAt,
    counterpartyName: line.counterpartyName,
    counterpartyIban: line.counterpartyIban,
    transactionId: transactionId ?? undefined,
    number: status.number,
    decision: status.decision,
    mode: status.mode,
    reason: status.reason,
    decidedBy: status.decidedBy,
    decidedAt: status.decidedAt,
  };
  for (const [k, v] of Object.entries(optional))
    if (v !== undefined) (view as unknown as Record<string, unknown>)[k] = v;
  return view;
}
