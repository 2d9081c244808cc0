// Replay phase: BENCH_REPLAY_EVENTS (default 1,000,000) realistic ledger events on PostgreSQL, then
// the raw speed of reading them (the replay reader's own key-set pages by binary COPY, on one
// connection, nothing done with the rows) beside the replay's speed (read + hash-chain check + the
// projection into a scratch schema), same run. Events are generated set-based in SQL in the store's
// own row format with the hash left empty, then PostgresEventStore.create backfills the chains (the
// migration path of old stores) and a VACUUM clears the row versions the backfill left behind; a
// CHECKPOINT then ends the set-up's writes before the reads are timed (the role needs pg_checkpoint,
// or to be a superuser).
//
// Per transaction: a deposit is DepositRequested + TransactionApproved (txn stream) + TransfersPosted
// (merchant ledger stream); every fourth is a withdrawal: WithdrawalRequested, TransfersReserved,
// TransactionApproved, ReservationPosted. Merchants: BENCH_REPLAY_MERCHANTS (default 50).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { REPLAY_NODE_OPTIONS, replayInOwnProcess } from '../apps/all-in-one/dist/cli/replay/replay-process.js';
import pg from 'pg';
import {
  START,
  auditHead,
  copiedPosition,
  postgresConnectionOf,
  postgresPoolConfig,
  readCopiedRows,
} from '../libs/event-store/dist/index.js';
import { READ_MODEL_SCHEMA, replayLedger } from '../services/ledger/dist/index.js';
import { round } from './load.mjs';

const CHUNK_TRANSACTIONS = 25_000; // one INSERT statement per chunk
const READ_BATCH = 2_000; // = the replay's page size
const EVENTS_PER_4_TRANSACTIONS = 3 * 3 + 4;

/** Events for transactions [from, to): a set-based INSERT in the store's format (hash backfilled later). */
function chunkSql(from, to, merchants) {
  return `
  with t as (
    select i, 'b' || lpad(to_hex(i), 12, '0') as tag, 'bench-m' || (i % ${merchants}) as merchant,
           overlay(overlay(md5('bench-txn-' || i) placing '4' from 13) placing '8' from 17)::uuid as txn, (i % 4 = 3) as withdrawal, (10000 + (i % 97) * 100)::text as amount
    from generate_series(${from}, ${to - 1}) as i),
  ev as (
    -- (order within the transaction, stream, type, data)
    select i, 1 as k, 'txn-' || txn as stream, case when withdrawal then 'WithdrawalRequested' else 'DepositRequested' end as type,
      case when withdrawal then jsonb_build_object('transactionId', txn, 'number', i + 1, 'merchantId', merchant,
          'providerId', 'bench-provider', 'infrastructureId', 'bench-infra', 'form', 'h2h', 'externalId', 'BW-' || i,
          'requestFingerprint', md5(tag), 'echo', '{}'::jsonb, 'amountKurus', amount, 'feeKurus', '0',
          'customer', jsonb_build_object('fullName', 'Bench Müşteri ' || i), 'iban', 'TR330006100519786457841326')
      else jsonb_build_object('transactionId', txn, 'number', i + 1, 'merchantId', merchant,
          'providerId', 'bench-provider', 'infrastructureId', 'bench-infra', 'form', 'h2h', 'externalId', 'BD-' || i,
          'requestFingerprint', md5(tag), 'echo', '{}'::jsonb, 'amountKurus', amount,
          'customer', jsonb_build_object('fullName', 'Bench Müşteri ' || i),
          'receivingAccount', jsonb_build_object('bankAccountId', 'bench-account-' || (i % 7), 'bank', 'Ziraat Bankası',
            'bankCode', '00010', 'holderName', 'Bench Ltd', 'iban', 'TR330006100519786457841326', 'fast', true),
          'paymentToken', 'tok-' || tag, 'expiresAt', '2030-01-01T00:00:00.000Z') end as data
    from t
    union all
    select i, 2, 'merchant-ledger-' || merchant, 'TransfersReserved',
      jsonb_build_object('transactionId', txn, 'merchantId', merchant, 'transfers', jsonb_build_array(jsonb_build_object(
        'transferId', 'tr-' || tag, 'debitAccount', 'merchant:' || merchant, 'creditAccount', 'payout-clearing',
        'amountKurus', amount)))
    from t where withdrawal
    union all
    select i, 3, 'txn-' || txn, 'TransactionApproved',
      jsonb_build_object('transactionId', txn, 'amountKurus', amount,
        'fromState', case when withdrawal then 'pending' else 'awaiting_payment' end,
        'by', jsonb_build_object('operatorId', 'bench-operator', 'source', 'panel'))
    from t
    union all
    select i, 4, 'merchant-ledger-' || merchant, case when withdrawal then 'ReservationPosted' else 'TransfersPosted' end,
      jsonb_build_object('transactionId', txn, 'merchantId', merchant, 'transfers', jsonb_build_array(jsonb_build_object(
        'transferId', case when withdrawal then 'tr-' || tag else 'tp-' || tag end,
        'debitAccount', case when withdrawal then 'merchant:' || merchant else 'bank:bench-account-' || (i % 7) end,
        'creditAccount', case when withdrawal then 'payout-clearing' else 'merchant:' || merchant end,
        'amountKurus', amount)))
    from t),
  numbered as (
    select ev.*, row_number() over (partition by stream order by i, k)
             + coalesce((select version from es_streams s where s.stream_id = ev.stream), 0) as version
    from ev)
  insert into es_events (event_id, stream_id, stream_version, type, schema_version, data, metadata)
  select md5(stream || '#' || version)::uuid, stream, version, type, 1, data,
         jsonb_build_object('actor', 'bench-operator', 'source', 'bench')
  from numbered order by i, k`;
}

export async function generate(db, events, merchants, log) {
  const transactions = Math.max(4, Math.round((events / EVENTS_PER_4_TRANSACTIONS) * 4));
  for (let from = 0; from < transactions; from += CHUNK_TRANSACTIONS) {
    const to = Math.min(transactions, from + CHUNK_TRANSACTIONS);
    await db.query(chunkSql(from, to, merchants));
    // Stream versions so far (heads stay empty: the backfill fills them).
    await db.query(`insert into es_streams (stream_id, version)
                    select stream_id, max(stream_version) from es_events where stream_id like 'merchant-ledger-%' group by stream_id
                    on conflict (stream_id) do update set version = excluded.version`);
    if ((from / CHUNK_TRANSACTIONS) % 8 === 0) log(`    generated ${to}/${transactions} transactions`);
  }
  await db.query(`insert into es_streams (stream_id, version)
                  select stream_id, max(stream_version) from es_events group by stream_id
                  on conflict (stream_id) do update set version = excluded.version`);
  const { rows } = await db.query(`select count(*)::int as n from es_events`);
  return rows[0].n;
}

/** Reads every event with the replay's own query and page size, doing nothing with the rows. */
async function rawRead(db) {
  const until = await auditHead(db);
  const client = new pg.Client(postgresPoolConfig(postgresConnectionOf(db), 1));
  await client.connect();
  try {
    let after = START;
    let n = 0;
    const t0 = performance.now();
    for (;;) {
      const page = await readCopiedRows(client, after, until, READ_BATCH);
      if (page.rows === 0) break;
      n += page.rows;
      after = copiedPosition(page, page.rows - 1);
    }
    const seconds = (performance.now() - t0) / 1000;
    return { events: n, seconds: round(seconds, 2), eventsPerSec: round(n / seconds, 0) };
  } finally {
    await client.end();
  }
}

/**
 * @param {{ db: import('../libs/event-store/dist/index.js').SqlDatabase, PostgresEventStore: any, log: (m: string) => void }} ctx
 */
export async function measureReplay({ db, PostgresEventStore, log }) {
  const events = Number(process.env.BENCH_REPLAY_EVENTS ?? 1_000_000);
  const merchants = Number(process.env.BENCH_REPLAY_MERCHANTS ?? 50);
  if (!Number.isInteger(events) || events < 13 || events > 20_000_000)
    throw new Error('BENCH_REPLAY_EVENTS: 13..20000000');
  await PostgresEventStore.create(db);
  // The live read models exist (empty: the app never ran here); the comparison is not the point.
  await db.exec(READ_MODEL_SCHEMA);
  const projector = process.env.BENCH_REPLAY_PROJECTOR ?? 'memory';
  const { rows: present } = await db.query(`select count(*)::int as n from es_events`);
  let t = performance.now();
  const stored = present[0].n > 0 ? present[0].n : await generate(db, events, merchants, log);
  const generateSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  await PostgresEventStore.create(db); // backfills the hash chains of the generated streams
  const backfillSeconds = (performance.now() - t) / 1000;
  // The backfill rewrote every generated row (its hash): a million dead row versions that a store
  // written by appends never has (each event is inserted once, hash included) and that autovacuum
  // removes on any cluster that runs it; this machine's cluster does not (autovacuum = off). Read
  // through them, the raw read and the replay cost the server ~10% more.
  t = performance.now();
  if (present[0].n === 0) await db.query('vacuum (analyze) es_events');
  const vacuumSeconds = (performance.now() - t) / 1000;
  // The generation, the backfill and the vacuum write gigabytes of WAL: left to themselves they keep
  // the checkpointer flushing through the reads measured next (a checkpoint has started and run during
  // a full run's replay). A store replayed in production was written
  // long before; a checkpoint here ends the set-up's writes before anything is timed.
  t = performance.now();
  await db.query('checkpoint');
  const checkpointSeconds = (performance.now() - t) / 1000;
  log(
    `    ${stored} events generated in ${round(generateSeconds, 1)} s, chains backfilled in ${round(backfillSeconds, 1)} s, ` +
      `vacuumed in ${round(vacuumSeconds, 1)} s, checkpointed in ${round(checkpointSeconds, 1)} s`,
  );

  const raw = await rawRead(db);
  log(`    raw read: ${raw.eventsPerSec} events/s`);
  t = performance.now();
  const report = await replayLedger({ db, compareLive: false, projector });
  const totalSeconds = (performance.now() - t) / 1000;
  if (report.chain.brokenCount !== 0)
    throw new Error(`replay found ${report.chain.brokenCount} broken links in generated data`);
  const rebuilt = await db.query(`select count(*)::int as n from rm_transactions`); // live (empty) table: sanity only
  const replay = {
    projector,
    events: report.events.read,
    rebuildSeconds: round(report.events.seconds, 2),
    eventsPerSec: report.events.perSecond,
    totalSeconds: round(totalSeconds, 2),
    eventsPerSecIncludingChecks: round(report.events.read / totalSeconds, 0),
    invariantViolations: report.invariants.filter((v) => v.invariant !== 'approval_has_callback_record').length,
  };
  log(
    `    replay: ${replay.eventsPerSec} events/s (rebuild), ${replay.eventsPerSecIncludingChecks} events/s with invariants`,
  );
  return {
    events: stored,
    merchants,
    generateSeconds: round(generateSeconds, 1),
    backfillSeconds: round(backfillSeconds, 1),
    raw,
    replay,
    ratio: round(replay.eventsPerSec / raw.eventsPerSec, 3),
    liveRowsUntouched: rebuilt.rows[0].n === 0,
  };
}

/**
 * The phase as `transfergate replay` runs: in a Node process started with the replay's own options
 * (REPLAY_NODE_OPTIONS, apps/all-in-one/src/cli/replay/replay-process.ts), the raw read included, so
 * replay/raw compares two reads in the same heap. The events go to `schema`, which the caller drops.
 * Resolves with measureReplay's result; the process's log lines go to `log`.
 */
export async function measureReplayInOwnProcess({ url, schema, log }) {
  const resultDir = mkdtempSync(join(tmpdir(), 'tg-bench-replay-'));
  const resultFile = join(resultDir, 'result.json');
  try {
    const child = spawn(process.execPath, [...REPLAY_NODE_OPTIONS, fileURLToPath(import.meta.url)], {
      env: { ...process.env, TEST_DATABASE_URL: url, BENCH_REPLAY_SCHEMA: schema, BENCH_REPLAY_RESULT: resultFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const logged = /^\[\s*[\d.]+s\] (.*)$/.exec(line);
        if (logged) log(logged[1]);
      }
    });
    const exitCode = await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(code ?? signal));
    });
    if (exitCode !== 0) throw new Error(`replay phase exited with ${exitCode}`);
    return JSON.parse(readFileSync(resultFile, 'utf8'));
  } finally {
    rmSync(resultDir, { recursive: true, force: true });
  }
}

// `node bench/replay-phase.mjs` runs this phase alone (after `npm run build`), in a throw-away schema,
// with the replay's Node options (it runs itself again with them if they are missing).
if (import.meta.url === `file://${process.argv[1]}`) {
  const exitCode = await replayInOwnProcess();
  if (exitCode !== undefined) process.exit(exitCode);
  const { openPostgres, PostgresEventStore } = await import('../libs/event-store/dist/index.js');
  const url = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const keep = process.env.BENCH_REPLAY_SCHEMA;
  if (keep !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(keep)) throw new Error('BENCH_REPLAY_SCHEMA: a plain name');
  const schema = keep || `bench_replay_${process.pid}`;
  const db = await openPostgres({ url, schema, poolSize: 4 });
  const started = Date.now();
  const log = (m) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${m}`);
  try {
    const result = await measureReplay({ db, PostgresEventStore, log });
    if (process.env.BENCH_REPLAY_RESULT) writeFileSync(process.env.BENCH_REPLAY_RESULT, JSON.stringify(result));
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await db.close();
    if (!keep) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  }
}
