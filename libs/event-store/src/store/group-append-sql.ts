/**
 * The SQL of a group append (append-groups.ts gathers the callers, postgres-event-store.ts settles
 * them): the group's statements and the server-side functions that run them in one call.
 */
import { GENESIS_HASH_SQL, canonicalEventSql } from './event-chain.js';
import type { GroupMember } from './append-groups.js';

/** Stream locks of several writes, taken in one fixed order (no deadlocks) before any write assigns an xid. */
export const LOCK_STREAMS = `select pg_advisory_xact_lock(hashtextextended(s, 0)) from jsonb_array_elements_text($1::jsonb) as s order by s`;

/** A payload write's fields, as both statements read them. */
const WRITE_FIELDS = `(w->>'m')::int as m, (w->>'w')::int as w, w->>'s' as s, w->>'k' as k, (w->>'x')::int as x`;
/** A write's stream as it is now, and whether the write's expectation holds. */
const STREAM_NOW = `p.*, st.version as cur_version, st.head_hash as cur_head,
         case p.k when 'no_stream' then st.stream_id is null
                  when 'any' then true
                  else st.version is not distinct from p.x end as ok`;
/** Each write's stream by its key (see GROUP_APPEND_SQL on why a lateral probe). */
const STREAM_LOOKUP = `from p left join lateral (select s.stream_id, s.version, s.head_hash from es_streams s where s.stream_id = p.s limit 1) st
    on true`;
/** A member is written only if all its writes hold and none of its event ids is stored already. */
const MEMBERS = `members as (
  select m, bool_and(ok) and not bool_or(stored) as member_ok, bool_or(stored) as has_stored_id from cur group by m
)`;

/**
 * A group's writes in one statement ($1: groupPayload), run after the group's stream locks so that
 * its snapshot sees every stream as the last writer left it and nobody moves them meanwhile.
 * Every lookup is an index probe per write, whatever the planner's statistics say: PGlite never
 * analyzes, and a plain join of the payload with es_streams was planned as a hash join over every
 * stream (35 ms per group of 25 at 20,000 streams, growing with the store); the LIMIT keeps the
 * lateral subquery from being flattened back into that join, and `= any(array(...))` keeps the
 * stored-id check off a semi join that may scan es_events.
 * `cur`: each write's stream now and whether its expectation holds; `members`: a member is written
 * only if all its writes hold and none of its event ids is stored already; `todo`: the written
 * writes, each with the events written before it to its stream in this group (`off`: several
 * members may append to one stream when none of them expects a version); `chain`: each written
 * stream's hash chain continued event by event from its head across those writes (event-chain.ts,
 * the same encoding as the single append); then the stream heads, one per stream, and the events in
 * arrival order (member, write, event) so that seq follows it. One row per write comes back.
 */
export const GROUP_APPEND_SQL = `
with recursive p as (
  select ${WRITE_FIELDS},
         w->'ev' as evs, jsonb_array_length(w->'ev') as n
  from jsonb_array_elements($1::jsonb) as t(w)
),
cur as (
  select ${STREAM_NOW},
         exists (select 1 from es_events e
                 where e.event_id = any (array(select (el.e->>'id')::uuid from jsonb_array_elements(p.evs) as el(e))))
           as stored
  -- One index probe per write (lateral, limit 1): as a plain join the planner guessed 100 payload
  -- rows and hashed the whole of es_streams, one row per transaction ever made, on every group.
  ${STREAM_LOOKUP}
),
${MEMBERS},
todo as (
  -- off: the events written before this one to its stream in this group (several members may write
  -- one stream when none of them expects a version; AppendGroups decides), so its versions follow them.
  select c.*, coalesce(c.cur_version, 0) as v0,
         coalesce(sum(c.n) over (partition by c.s order by c.m, c.w rows between unbounded preceding and 1 preceding), 0)::int
           as off
  from cur c join members mm on mm.m = c.m where mm.member_ok
),
ev as (
  select t.s, t.m, t.w, t.v0, t.off + x.ord::int as k, x.e, x.ord
  from todo t, jsonb_array_elements(t.evs) with ordinality as x(e, ord)
),
streams as (
  select t.s, min(t.v0) as v0, sum(t.n)::int as total, (array_agg(t.cur_head))[1] as cur_head from todo t group by t.s
),
chain(s, k, hash) as (
  select st.s, 0, coalesce(st.cur_head, ${GENESIS_HASH_SQL}) from streams st
  union all
  select ev.s, ev.k, sha256(chain.hash || ${canonicalEventSql({
    streamId: 'ev.s',
    streamVersion: 'ev.v0 + ev.k',
    type: "ev.e->>'type'",
    schemaVersion: "(ev.e->>'v')::int",
    eventId: "ev.e->>'id'",
    recordedAt: 'now()',
    data: "ev.e->'data'",
    metadata: "ev.e->'meta'",
  })})
  from chain join ev on ev.s = chain.s and ev.k = chain.k + 1
),
heads as (
  insert into es_streams (stream_id, version, head_hash, prev_head_hash)
  select st.s, st.v0 + st.total, c.hash, st.cur_head
  from streams st join chain c on c.s = st.s and c.k = st.total
  on conflict (stream_id) do update
    set version = excluded.version, head_hash = excluded.head_hash, prev_head_hash = es_streams.head_hash
  returning stream_id
),
inserted as (
  insert into es_events (event_id, stream_id, stream_version, type, schema_version, data, metadata, created_at, hash)
  select (ev.e->>'id')::uuid, ev.s, ev.v0 + ev.k, ev.e->>'type', (ev.e->>'v')::int, ev.e->'data',
         ev.e->'meta', now(), c.hash
  from ev join chain c on c.s = ev.s and c.k = ev.k
  order by ev.m, ev.w, ev.ord
  returning stream_id, stream_version, xid, seq
)
select c.m, c.w, c.ok, mm.member_ok, mm.has_stored_id, c.cur_version,
       coalesce(c.cur_version, 0) + coalesce(t.off, 0) + c.n as next_version, pos.xid, pos.seq
from cur c join members mm on mm.m = c.m left join todo t on t.m = c.m and t.w = c.w
-- The write's own events (its versions of the stream): its position is the last one's.
left join lateral (
  select max(i.xid::text) as xid, max(i.seq)::text as seq from inserted i
  where i.stream_id = c.s and i.stream_version > t.v0 + t.off and i.stream_version <= t.v0 + t.off + c.n
) pos on true
order by c.m, c.w`;

/**
 * GROUP_APPEND_SQL for a group whose every write carries one event (every deposit request): the
 * same checks, rows and hashes (the chain's one step: SHA-256 of the stream's head and the event's
 * canonical encoding, as in event-chain.ts), without expanding the events and running the chain's
 * recursion, whose sorts and joins cost more than the hashing itself. Only for a group whose streams
 * each appear once (groupAppend), so each write's position is its stream's one inserted row.
 */
export const GROUP_APPEND_ONE_EVENT_SQL = `
with p as (
  select ${WRITE_FIELDS},
         w->'ev'->0 as e
  from jsonb_array_elements($1::jsonb) as t(w)
),
cur as (
  select ${STREAM_NOW},
         -- A scalar subquery, never flattened into a semi join (which a generic plan may run as a
         -- hash join over all of es_events, like the stream lookup above).
         (select 1 from es_events e where e.event_id = (p.e->>'id')::uuid limit 1) is not null as stored
  ${STREAM_LOOKUP}
),
${MEMBERS},
todo as (
  select c.m, c.w, c.s, c.e, c.cur_head, coalesce(c.cur_version, 0) + 1 as version,
         sha256(coalesce(c.cur_head, ${GENESIS_HASH_SQL}) || ${canonicalEventSql({
           streamId: 'c.s',
           streamVersion: 'coalesce(c.cur_version, 0) + 1',
           type: "c.e->>'type'",
           schemaVersion: "(c.e->>'v')::int",
           eventId: "c.e->>'id'",
           recordedAt: 'now()',
           data: "c.e->'data'",
           metadata: "c.e->'meta'",
         })}) as hash
  from cur c join members mm on mm.m = c.m
  where mm.member_ok
),
heads as (
  insert into es_streams (stream_id, version, head_hash, prev_head_hash)
  select t.s, t.version, t.hash, t.cur_head from todo t
  on conflict (stream_id) do update
    set version = excluded.version, head_hash = excluded.head_hash, prev_head_hash = es_streams.head_hash
  returning stream_id
),
inserted as (
  insert into es_events (event_id, stream_id, stream_version, type, schema_version, data, metadata, created_at, hash)
  select (t.e->>'id')::uuid, t.s, t.version, t.e->>'type', (t.e->>'v')::int, t.e->'data', t.e->'meta', now(), t.hash
  from todo t
  order by t.m, t.w
  returning stream_id, xid, seq
)
select c.m, c.w, c.ok, mm.member_ok, mm.has_stored_id, c.cur_version,
       coalesce(c.cur_version, 0) + 1 as next_version, i.xid::text as xid, i.seq::text as seq
from cur c join members mm on mm.m = c.m left join inserted i on i.stream_id = c.s
order by c.m, c.w`;

/** One row per write of a group (GROUP_APPEND_SQL). */
export interface GroupRow {
  m: number;
  w: number;
  ok: boolean;
  member_ok: boolean;
  has_stored_id: boolean;
  cur_version: number | null;
  next_version: number;
  xid: string | null;
  seq: string | null;
}

/** $1 of GROUP_APPEND_SQL: every write of the group with its member (m) and place in it (w). */
function groupPayload(members: GroupMember[]): string {
  return JSON.stringify(
    members.flatMap((member, m) =>
      member.writes.map((write, w) => {
        const ev = write.expectedVersion;
        return {
          m,
          w,
          s: write.streamId,
          // Expected version 0 means no stream, as in claimSql.
          k: ev === 'any' ? 'any' : ev === 'no_stream' || ev === 0 ? 'no_stream' : 'at',
          x: typeof ev === 'number' ? ev : null,
          ev: write.events.map((event) => ({
            id: event.eventId,
            type: event.type,
            v: event.schemaVersion,
            data: event.data,
            meta: event.metadata ?? {},
          })),
        };
      }),
    ),
  );
}

/** The columns of GroupRow, as a function returns them. */
const GROUP_ROW_COLUMNS = `m int, w int, ok boolean, member_ok boolean, has_stored_id boolean, cur_version int,
  next_version int, xid text, seq text`;

/**
 * A function that takes the group's stream locks and then runs its append: one statement, so a
 * group costs the server one round trip, the commit included, instead of four (begin, locks, append,
 * commit). Each statement of a VOLATILE function takes a fresh snapshot, so the append sees every
 * stream as its last writer left it, exactly as the second statement of a transaction does; no write
 * comes before the locks, so the xid is still assigned only once they are held. `use_column`: the
 * returned columns share names with the tables' columns the SQL refers to.
 */
function groupAppendFunction(name: string, appendSql: string): string {
  return `create or replace function ${name}(payload jsonb, streams jsonb) returns table (${GROUP_ROW_COLUMNS})
language plpgsql volatile as $group_append$
#variable_conflict use_column
begin
  perform pg_advisory_xact_lock(hashtextextended(s, 0)) from jsonb_array_elements_text(streams) as s order by s;
  return query ${appendSql};
end
$group_append$;`;
}

/** Installed with the event store's schema (PostgresEventStore.create); replaced on every start. */
export const GROUP_APPEND_FUNCTIONS = [
  groupAppendFunction('es_append_group', GROUP_APPEND_SQL),
  groupAppendFunction('es_append_group_one_event', GROUP_APPEND_ONE_EVENT_SQL),
].join('\n');

/** What one group's append takes: $1 of the statements (groupPayload) and its stream ids to lock. */
export interface GroupAppend {
  payload: string;
  streams: string;
  /** Every write carries one event: the one-event statement (and function) applies. */
  oneEventEach: boolean;
  /** The members' rows alongside (`[{ m, r: row }]` per insert, one parameter each), if any. */
  alongside?: Array<{
    table: string;
    columns: Readonly<Record<string, string>>;
    recordedAt: readonly string[];
    rows: string;
  }>;
}

/** Frozen column declarations' key parts, made once (a new deposit's is the same frozen object every time). */
const declarationKeys = new WeakMap<Readonly<Record<string, string>>, string>();

/** The columns and types of a declaration as part of a key: equal declarations, equal keys. */
function columnsKey(columns: Readonly<Record<string, string>>): string {
  let key = declarationKeys.get(columns);
  if (key === undefined) {
    key = JSON.stringify(columns);
    if (Object.isFrozen(columns)) declarationKeys.set(columns, key);
  }
  return key;
}

export function groupAppend(members: GroupMember[]): GroupAppend {
  const streams = new Set<string>();
  let writes = 0;
  for (const member of members) {
    for (const write of member.writes) streams.add(write.streamId);
    writes += member.writes.length;
  }
  const group: GroupAppend = {
    payload: groupPayload(members),
    streams: JSON.stringify([...streams]),
    // The one-event statement hashes each write from its stream's stored head: a stream written by
    // two members (AppendGroups allows it where no write expects a version) needs the chain's recursion.
    oneEventEach: streams.size === writes && members.every((m) => m.writes.every((w) => w.events.length === 1)),
  };
  // One insert per table and column declaration: members that declare a table's columns alike
  // share it (every new deposit does), others get their own.
  const inserts = new Map<
    string,
    { table: string; columns: Readonly<Record<string, string>>; recordedAt: readonly string[]; rows: unknown[] }
  >();
  members.forEach((member, m) => {
    for (const alongside of member.alongside ?? []) {
      const recordedAt = alongside.recordedAtColumns ?? [];
      // Table and stamp names are plain identifiers (checked by the store), without spaces: the table
      // ends at the first space and the stamps start after the last, so equal keys, equal declarations.
      const key = `${alongside.table} ${columnsKey(alongside.columns)} ${recordedAt.join(',')}`;
      let insert = inserts.get(key);
      if (!insert)
        inserts.set(key, (insert = { table: alongside.table, columns: alongside.columns, recordedAt, rows: [] }));
      for (const row of alongside.rows) insert.rows.push({ m, r: row });
    }
  });
  if (inserts.size > 0) {
    group.alongside = [...inserts.values()].map((insert) => ({ ...insert, rows: JSON.stringify(insert.rows) }));
  }
  return group;
}

/**
 * The group's append as one call (a server: one round trip, the commit included). With rows
 * alongside, the call is the first part of a statement whose other parts insert each member's rows
 * if the call wrote the member: one statement, so one transaction with the events, and no round
 * trip more. The call is materialized and read by the inserts, so it runs (and takes its locks)
 * before they do; `member_ok` is false for a member that wrote nothing (a conflict, an id already
 * stored). The recorded-time columns take the events' `now()` as readers get it (to the ms).
 */
export function groupAppendCall(group: GroupAppend): { sql: string; params: string[] } {
  const name = group.oneEventEach ? 'es_append_group_one_event' : 'es_append_group';
  const call = `select * from ${name}($1::jsonb, $2::jsonb)`;
  if (!group.alongside) return { sql: call, params: [group.payload, group.streams] };
  const params = [group.payload, group.streams];
  const inserts = group.alongside.map(({ table, columns, recordedAt, rows }, i) => {
    params.push(rows);
    const names = Object.keys(columns);
    const typed = names.map((c) => `${c} ${columns[c]}`).join(', ');
    return `rows_${i} as (
  insert into ${table} (${[...names, ...recordedAt].join(', ')})
  select ${[...names.map((c) => `x.${c}`), ...recordedAt.map(() => 'at.ms')].join(', ')}
  from jsonb_array_elements($${params.length}::jsonb) as e(v)
  cross join lateral jsonb_to_record(e.v->'r') as x(${typed})
  cross join (select date_trunc('milliseconds', now()) as ms) as at
  where (e.v->>'m')::int in (select g.m from g where g.member_ok)
)`;
  });
  return { sql: `with g as materialized (${call}),\n${inserts.join(',\n')}\nselect * from g`, params };
}
