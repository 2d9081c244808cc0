// Reconciliation phase (also runnable alone after `npm run build`: `node bench/reconciliation-phase.mjs`).
//
// 1. The matcher alone on generated days of 5,000 and 50,000 deposits (bench/reconciliation-day.mjs):
//    µs per line at both sizes (their ratio near 1 = linear, not quadratic), and the precision and
//    recall of its strong (automatic) matches against the known truth.
// 2. End to end on PostgreSQL: BENCH_RECON_DEPOSITS (default 50,000) open deposits in the store
//    (DepositRequested events written set-based, projected by the real app at start), then one
//    statement of BENCH_RECON_LINES (default 100,000) lines in the İş Bankası CSV layout imported
//    through the ledger's ImportStatementCommand (parse, identity, assessment, one event per line and
//    one per assessment, in one transaction), timed until the read models hold every line; then the
//    precision and recall of the strong matches as the system recorded them.
// 3. Automatic approval at scale (autoApproval below): a camt.053 imported with automatic approval
//    off and on, side by side, and the ratio of their rates.
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPostgres, PostgresEventStore } from '../libs/event-store/dist/index.js';
import { ConfigureReconciliationCommand, ImportStatementCommand } from '../libs/contracts/dist/index.js';
import * as allInOne from '../apps/all-in-one/dist/index.js';
import { configIdFor } from '../services/ledger/dist/index.js';
import { Matcher } from '../services/ledger/dist/reconciliation/matching/matcher.js';
import { camt053, generateDay, isBankasiCsv, scoreDay, scoreOutcomes } from './reconciliation-day.mjs';

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const IBAN = 'TR330006100519786457841326';
const CHUNK = 5_000;
const toDecimals = (v, d = 0) => Math.round(v * 10 ** d) / 10 ** d;

const BOOTSTRAP = {
  operators: [{ username: 'admin', password: 'Bench-pass-1!', role: 'admin' }],
  infrastructures: [
    {
      name: 'Recon Bench',
      slug: 'recon-bench',
      apiForm: 'h2h',
      callbackFormat: 'h2h',
      callback_deposit: 'http://127.0.0.1:9/cb',
      callback_withdrawal: 'http://127.0.0.1:9/cb',
      webhookAllowedIps: [],
    },
  ],
  merchants: [
    {
      name: 'ReconBench',
      minAmount: 1,
      maxAmount: 500000,
      depositCommissionPercent: 0,
      withdrawalCommissionPercent: 0,
      overdraftLimit: 0,
      providers: [
        {
          name: 'recon-bench-h2h',
          infrastructure: 'recon-bench',
          apiKey: 'ak_recon_bench',
          apiSecret: 'sk_recon_bench',
        },
      ],
    },
  ],
  bankAccounts: [
    {
      bank: 'Ziraat Bankası',
      iban: IBAN,
      holderName: 'Bench Ltd',
      fast: true,
      minAmount: 1,
      maxAmount: 500000,
      dailyLimit: 1e9,
    },
  ],
};

function matcherAlone(log) {
  const out = {};
  for (const deposits of [5_000, 50_000]) {
    const day = generateDay({ deposits, seed: 11 });
    const score = scoreDay(day, Matcher);
    out[deposits] = { ...score, usPerLine: toDecimals((score.matchMs * 1000) / score.lines, 1) };
    log(
      `    matcher alone, ${deposits} deposits / ${score.lines} lines: ${out[deposits].usPerLine} µs/line, precision ${score.precision}, recall ${toDecimals(score.recall, 3)}`,
    );
  }
  return { ...out, perLineRatio50kOver5k: toDecimals(out[50_000].usPerLine / out[5_000].usPerLine, 2) };
}

async function writeDeposits(db, day, ids) {
  for (let i = 0; i < day.deposits.length; i += CHUNK) {
    const rows = day.deposits.slice(i, i + CHUNK).map((d) => ({
      stream: `txn-${d.transactionId}`,
      created_at: new Date(d.createdAtMs).toISOString(),
      data: {
        transactionId: d.transactionId,
        number: d.number,
        merchantId: ids.merchantId,
        providerId: ids.providerId,
        infrastructureId: ids.infrastructureId,
        form: 'h2h',
        externalId: `RB-${d.number}`,
        requestFingerprint: 'bench',
        echo: {},
        amountKurus: d.amountKurus.toString(),
        customer: { fullName: d.names[0] },
        receivingAccount: {
          bankAccountId: ids.bankAccountId,
          bank: 'Ziraat Bankası',
          bankCode: '00010',
          holderName: 'Bench Ltd',
          iban: IBAN,
          fast: true,
        },
        paymentToken: `rbtok-${d.number}`,
        expiresAt: new Date(d.expiresAtMs).toISOString(),
      },
    }));
    await db.query(
      `insert into es_events (event_id, stream_id, stream_version, type, schema_version, data, metadata, created_at)
       select md5(x.stream)::uuid, x.stream, 1, 'DepositRequested', 1, x.data, '{"actor":"bench","source":"bench"}'::jsonb, x.created_at
       from jsonb_to_recordset($1::jsonb) as x(stream text, created_at timestamptz, data jsonb)`,
      [JSON.stringify(rows)],
    );
  }
  await db.query(`insert into es_streams (stream_id, version) select stream_id, max(stream_version) from es_events
                  group by stream_id on conflict (stream_id) do update set version = excluded.version`);
}

const benchIds = () => ({
  merchantId: configIdFor.merchant('ReconBench'),
  providerId: configIdFor.provider('recon-bench-h2h'),
  infrastructureId: configIdFor.infrastructure('recon-bench'),
  bankAccountId: configIdFor.bankAccount(IBAN),
});

/**
 * A fresh schema holding the day's deposits (written set-based) and the app started on it, the
 * deposits projected; `close` stops the app and drops the schema.
 */
async function openBench(day, ids, log) {
  const schema = `bench_recon_${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'tg-recon-bench-'));
  let running;
  const close = async () => {
    if (running) await running.close();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const seed = await openPostgres({ url: PG_URL, schema, poolSize: 2 });
    await PostgresEventStore.create(seed);
    let t = performance.now();
    await writeDeposits(seed, day, ids);
    await seed.close();
    log(`    ${day.deposits.length} deposits written in ${toDecimals((performance.now() - t) / 1000, 1)} s`);
    t = performance.now();
    running = await allInOne.createApp(
      {
        port: 0,
        host: '127.0.0.1',
        dataDir,
        databaseUrl: PG_URL,
        depositTtlMs: 1_800_000,
        secretKey: randomBytes(32),
        bodyLimitBytes: 256 * 1024,
        trustProxy: [],
        shutdownTimeoutMs: 10_000,
        logLevel: 'error',
        rateLimitPerMinute: 0,
        callbackAllowedTargets: ['127.0.0.1/32'],
        paymentPageUrl: 'http://127.0.0.1:0',
        testAuthEnabled: false,
        environment: 'production',
      },
      { schema },
    );
    await running.provision(allInOne.parseBootstrap(BOOTSTRAP, 'bench'));
    await running.settle(600_000);
    await running.db.query(`select setval('txn_number_seq', $1)`, [day.deposits.length + 1]);
    const open = await running.db.query(
      `select count(*)::int as n from rm_transactions where state = 'awaiting_payment'`,
    );
    log(`    app up, ${open.rows[0].n} open deposits projected in ${toDecimals((performance.now() - t) / 1000, 1)} s`);
    return { running, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Imports one statement through the ledger's command; seconds until answered and until projected. */
async function importStatement(running, ids, format, content, extra = {}) {
  const t = performance.now();
  const report = await running.commands.execute(
    new ImportStatementCommand({
      bankAccountId: ids.bankAccountId,
      format,
      fileName: `bench.${format}`,
      contentBase64: content.toString('base64'),
      actor: { source: 'bench' },
      ...extra,
    }),
  );
  const answeredSeconds = (performance.now() - t) / 1000;
  await running.settle(900_000);
  return { report, answeredSeconds, totalSeconds: (performance.now() - t) / 1000 };
}

async function endToEnd(log) {
  const depositsN = Number(process.env.BENCH_RECON_DEPOSITS ?? 50_000);
  const linesN = Number(process.env.BENCH_RECON_LINES ?? 100_000);
  const ids = benchIds();
  // The day lies ahead (deposits expire later than the bench runs: no expiry sweep interferes).
  const day = generateDay({ deposits: depositsN, seed: 23, baseMs: Date.now() + 60_000, padLinesTo: linesN });
  const { running, close } = await openBench(day, ids, log);
  try {
    const csv = Buffer.from(isBankasiCsv(day), 'utf8');
    const { report, answeredSeconds, totalSeconds } = await importStatement(running, ids, 'csv', csv, {
      preset: 'is-bankasi',
    });
    const { rows } = await running.db.query(
      `select l.record->>'bankReference' as ref, s.record->'candidates' as candidates
       from rm_statement_lines l join rm_statement_line_status s on s.line_id = l.line_id`,
    );
    const strong = new Map();
    for (const r of rows) {
      const c = (r.candidates ?? []).find((x) => x.strong);
      if (c) strong.set(r.ref, c.number);
    }
    const score = scoreOutcomes(day, (l) => strong.get(l.ref));
    const result = {
      deposits: depositsN,
      lines: report.linesNew,
      csvBytes: csv.length,
      answeredSeconds: toDecimals(answeredSeconds, 1),
      totalSeconds: toDecimals(totalSeconds, 1),
      linesPerSecond: toDecimals(report.linesNew / totalSeconds, 0),
      linesInReadModels: rows.length,
      strongWaiting: report.strongWaiting,
      precision: score.precision,
      recall: toDecimals(score.recall, 4),
      strong: score.strong,
      eligible: score.eligible,
      wrongStrong: score.wrongStrong,
    };
    log(
      `    imported + matched ${result.lines} lines against ${depositsN} open deposits in ${result.totalSeconds} s ` +
        `(${result.linesPerSecond} lines/s; the command answered after ${result.answeredSeconds} s); ` +
        `strong matches precision ${result.precision}, recall ${result.recall}`,
    );
    return result;
  } finally {
    await close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * 3. Automatic approval at scale: one camt.053 of BENCH_AUTO_LINES (default 20,000) lines against
 *    BENCH_AUTO_DEPOSITS (default 10,000) open deposits, imported with automatic approval off and
 *    on, side by side in each of BENCH_AUTO_ROUNDS rounds (default 3; the order alternates), each
 *    import on a fresh schema. The line: lines/s of each (until the read models hold everything),
 *    and the ratio of their medians "import with automatic approval / import without" (the aim is
 *    at least 0.5); with approval on, the precision of the approvals as recorded (every approved
 *    deposit is the one the line truly pays) and that no deposit is approved twice.
 */
async function autoApproval(log) {
  const depositsN = Number(process.env.BENCH_AUTO_DEPOSITS ?? 10_000);
  const linesN = Number(process.env.BENCH_AUTO_LINES ?? 20_000);
  const N_ROUNDS = Number(process.env.BENCH_AUTO_ROUNDS ?? 3);
  const ids = benchIds();
  const rates = { off: [], on: [] };
  const approvals = [];
  for (let r = 0; r < N_ROUNDS; r++) {
    for (const mode of r % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
      const day = generateDay({ deposits: depositsN, seed: 31 + r, baseMs: Date.now() + 60_000, padLinesTo: linesN });
      const { running, close } = await openBench(day, ids, log);
      try {
        if (mode === 'on') {
          await running.commands.execute(
            new ConfigureReconciliationCommand({
              infrastructureId: ids.infrastructureId,
              autoApprove: true,
              actor: { source: 'bench' },
            }),
          );
          await running.settle(60_000);
        }
        const camt = Buffer.from(camt053(day, IBAN), 'utf8');
        const { report, answeredSeconds, totalSeconds } = await importStatement(running, ids, 'camt053', camt);
        const rate = report.linesNew / totalSeconds;
        rates[mode].push(rate);
        let check = '';
        if (mode === 'on') {
          const { rows } = await running.db.query(
            `select l.record->>'bankReference' as ref, t.number::int as number,
                    (select count(*)::int from es_events e where e.stream_id = 'txn-' || t.transaction_id::text
                       and e.type = 'TransactionApproved') as approvals
             from rm_statement_line_status s join rm_statement_lines l on l.line_id = s.line_id
             join rm_transactions t on t.transaction_id = s.transaction_id
             where s.state = 'matched' and l.direction = 'credit'`,
          );
          const truth = new Map(day.lines.map((l) => [l.ref, l.truth]));
          const wrong = rows.filter((x) => truth.get(x.ref) !== x.number).length;
          const twice = rows.filter((x) => x.approvals !== 1).length;
          approvals.push({
            approved: report.autoMatched,
            matchedRows: rows.length,
            precision: rows.length === 0 ? 1 : (rows.length - wrong) / rows.length,
            approvedTwice: twice,
            failures: report.autoFailures.length,
          });
          check = `, ${report.autoMatched} approved, precision ${approvals.at(-1).precision}, ${twice} approved twice`;
        }
        log(
          `    round ${r + 1}, automatic approval ${mode}: ${report.linesNew} lines in ${toDecimals(totalSeconds, 1)} s ` +
            `(${toDecimals(rate, 0)} lines/s, answered after ${toDecimals(answeredSeconds, 1)} s${check})`,
        );
      } finally {
        await close();
      }
    }
  }
  const ratio = median(rates.on) / median(rates.off);
  log(
    `    automatic approval at scale: import with automatic approval / import without = ${toDecimals(ratio, 2)} ` +
      `(medians of ${N_ROUNDS} rounds: ${toDecimals(median(rates.on), 0)} / ${toDecimals(median(rates.off), 0)} lines/s)`,
  );
  return {
    deposits: depositsN,
    lines: linesN,
    rounds: N_ROUNDS,
    linesPerSecondOff: rates.off.map((x) => toDecimals(x, 0)),
    linesPerSecondOn: rates.on.map((x) => toDecimals(x, 0)),
    ratioOnOverOff: toDecimals(ratio, 3),
    approvals,
  };
}

/** @param {{ log: (m: string) => void }} ctx */
export async function measureReconciliation({ log }) {
  const matcher = matcherAlone(log);
  const e2e = Number(process.env.BENCH_RECON_LINES ?? 100_000) > 0 ? await endToEnd(log) : undefined;
  const auto = Number(process.env.BENCH_AUTO_ROUNDS ?? 3) > 0 ? await autoApproval(log) : undefined;
  return { matcher, endToEnd: e2e, autoApproval: auto };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const log = (m) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${m}`);
  measureReconciliation({ log }).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
