import { EVENT_CATALOG, type EventType } from '@transfergate/contracts';
import { openPostgres, type RecordedEvent, type SqlDatabase } from '@transfergate/event-store';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { diffReadModels } from '../replay/read-model-diff.js';
import { MemoryProjection } from '../replay/memory-projection.js';
import { evolve } from '../domain/transaction.js';
import { projectEvents, rowAlongsideRequest } from './projector.js';
import { READ_MODEL_SCHEMA } from './schema.js';

/** Random event histories the two row stores must agree on, in all. */
const RANDOM_HISTORIES = 10_000;
/** Histories interleaved into one event log per run (each run starts from empty tables). */
const HISTORIES_PER_RUN = 500;
/** The generator's seed: a failure names it, and SEED=<n> replays that run. */
const FIRST_SEED = Number(process.env.SEED ?? 61_061);

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A small deterministic PRNG (mulberry32), so a failing run can be replayed from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return { next, int, pick: <T>(list: readonly T[]) => list[int(list.length)]!, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof prng>;

function uuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** Recorded times around midnight in Türkiye (21:00 UTC), so deposits fall on both sides of a day. */
const MIDNIGHT_MS = Date.UTC(2026, 10, 24, 21, 0, 0, 0);
function recordedAt(random: Random, ms: number): string {
  const iso = new Date(ms).toISOString();
  // The store prints microseconds; some events carry them.
  return random.chance(0.3) ? `${iso.slice(0, 23)}${random.int(10)}${random.int(10)}${random.int(10)}Z` : iso;
}

interface Draft {
  streamId: string;
  type: EventType;
  data: unknown;
  metadata?: Record<string, unknown>;
}

const ACCOUNTS = ['ba-1', 'ba-2', 'ba-3'];
const MERCHANTS = ['m-1', 'm-2'];

/**
 * One transaction's random history: its request, then any of its later events in any order (the
 * fold does not judge moves, the decisions do), with the merchant ledger's postings a command
 * would append beside them (withdrawals reserve, change, post or void; deposits post), and now and
 * then a configuration change.
 */
function history(random: Random, n: number): Draft[] {
  const transactionId = uuid(random);
  const streamId = `txn-${transactionId}`;
  const merchantId = random.pick(MERCHANTS);
  const deposit = random.chance(0.6);
  let amount = 100 + random.int(1_000_000);
  const origin = {
    transactionId,
    number: n,
    merchantId,
    providerId: 'p-1',
    infrastructureId: 'i-1',
    form: random.pick(['merchant', 'h2h', 'infrastructure', 'panel'] as const),
    externalId: `ext-${n}`,
    requestFingerprint: 'f',
    amountKurus: String(amount),
    customer: { fullName: random.chance(0.2) ? 'Zeynep "Zee" O\\Neil \\N Şükrü' : `Customer ${n}` },
    echo: { OperationGuid: `g-${n}` },
  };
  const drafts: Draft[] = [];
  const ledger = `merchant-ledger-${merchantId}`;
  const transfers = (kind: string) => [
    {
      transferId: `${transactionId}:${kind}:${drafts.length}`,
      debitAccount: `merchant:${merchantId}`,
      creditAccount: deposit ? `bank:${origin.transactionId.slice(0, 4)}` : 'withdrawals',
      amountKurus: String(amount),
    },
    ...(random.chance(0.5)
      ? [
          {
            transferId: `${transactionId}:${kind}:fee:${drafts.length}`,
            debitAccount: `merchant:${merchantId}`,
            creditAccount: 'fees',
            amountKurus: String(random.int(5_000)),
          },
        ]
      : []),
  ];
  if (deposit) {
    const account = random.pick(ACCOUNTS);
    drafts.push({
      streamId,
      type: 'DepositRequested',
      data: {
        ...origin,
        receivingAccount: {
          bankAccountId: account,
          bank: 'B',
          bankCode: '0062',
          holderName: 'H',
          iban: `TR${account}`,
          fast: true,
        },
        paymentToken: `pt-${n}-${random.int(1e9)}`,
        expiresAt: new Date(MIDNIGHT_MS + random.int(86_400_000)).toISOString(),
      },
    });
  } else {
    drafts.push({
      streamId,
      type: 'WithdrawalRequested',
      data: { ...origin, feeKurus: String(random.int(500)), iban: 'TR00' },
    });
    drafts.push({
      streamId: ledger,
      type: 'TransfersReserved',
      data: { transactionId, merchantId, transfers: transfers('r') },
    });
  }
  const by = { source: 'panel', operatorId: 'op-1' };
  for (let i = random.int(6); i > 0; i--) {
    switch (random.int(8)) {
      case 0:
        drafts.push({ streamId, type: 'PaymentReported', data: { transactionId } });
        break;
      case 1:
        drafts.push({
          streamId,
          type: 'TransactionAssigned',
          data: { transactionId, assignee: `op-${random.int(3)}`, by },
        });
        break;
      case 2: {
        const from = amount;
        amount = 100 + random.int(1_000_000);
        const fee = String(random.int(500));
        drafts.push({
          streamId,
          type: 'TransactionAmountChanged',
          data: { transactionId, fromKurus: String(from), toKurus: String(amount), feeKurus: fee, by },
        });
        if (!deposit)
          drafts.push({
            streamId: ledger,
            type: 'ReservationChanged',
            data: { transactionId, merchantId, transfers: transfers('c') },
          });
        break;
      }
      case 3:
        drafts.push({
          streamId,
          type: 'TransactionApproved',
          data: { transactionId, amountKurus: String(amount), fromState: 'pending', by },
        });
        drafts.push(
          deposit
            ? {
                streamId: ledger,
                type: 'TransfersPosted',
                data: { transactionId, merchantId, transfers: transfers('p') },
              }
            : {
                streamId: ledger,
                type: 'ReservationPosted',
                data: { transactionId, merchantId, transfers: transfers('x') },
              },
        );
        break;
      case 4:
        drafts.push({
          streamId,
          type: 'TransactionRejected',
          data: { transactionId, reason: 'no payment seen', fromState: 'pending', by },
        });
        if (!deposit) drafts.push({ streamId: ledger, type: 'ReservationVoided', data: { transactionId, merchantId } });
        break;
      case 5:
        drafts.push({ streamId, type: 'TransactionExpired', data: { transactionId } });
        break;
      case 6:
        drafts.push({
          streamId,
          type: 'WebhookAmountMismatched',
          data: { transactionId, amountKurus: String(amount), paidAmountKurus: String(random.int(1e6)), by },
        });
        break;
      default:
        drafts.push(configChange(random));
    }
  }
  return drafts;
}

function configChange(random: Random): Draft {
  const by = { actor: `op-${random.int(3)}` };
  switch (random.int(3)) {
    case 0: {
      const bankAccountId = random.pick(ACCOUNTS);
      return {
        streamId: `config-bank-account-${bankAccountId}`,
        type: 'BankAccountConfigured',
        metadata: by,
        data: {
          bankAccountId,
          bank: 'B',
          bankCode: '0062',
          iban: `TR${bankAccountId}`,
          holderName: 'H',
          fast: random.chance(0.5),
          minAmountKurus: '100',
          maxAmountKurus: String(1_000_000 + random.int(1e6)),
          dailyLimitKurus: String(random.int(1e9)),
          active: random.chance(0.8),
        },
      };
    }
    case 1: {
      const merchantId = random.pick(MERCHANTS);
      return {
        streamId: `config-merchant-${merchantId}`,
        type: 'MerchantConfigured',
        metadata: by,
        data: {
          merchantId,
          name: `Merchant ${merchantId} ${random.int(100)}`,
          active: true,
          minAmountKurus: '100',
          maxAmountKurus: '100000000',
          depositCommissionBp: random.int(500),
          withdrawalCommissionBp: random.int(500),
          overdraftLimitKurus: '0',
        },
      };
    }
    default:
      return {
        streamId: 'config-api-settings',
        type: 'ApiSettingsConfigured',
        metadata: by,
        data: {
          testAuthEnabled: random.chance(0.5),
          paymentPageUrl: 'https://pay.example',
          depositTtlMinutes: 1 + random.int(60),
          callbackRetryScheduleSeconds: [0, 30],
          rateLimitPerMinute: random.int(1_000),
        },
      };
  }
}

/** `histories` random histories interleaved (each in its own order) into one recorded event log. */
function eventLog(random: Random, histories: number, firstNumber: number): RecordedEvent[] {
  const queues = Array.from({ length: histories }, (_, i) => history(random, firstNumber + i));
  const versions = new Map<string, number>();
  const log: RecordedEvent[] = [];
  let ms = MIDNIGHT_MS - 3_600_000;
  while (queues.length > 0) {
    const at = random.int(Math.min(queues.length, 20));
    const draft = queues[at]!.shift()!;
    if (queues[at]!.length === 0) queues.splice(at, 1);
    const streamVersion = (versions.get(draft.streamId) ?? 0) + 1;
    versions.set(draft.streamId, streamVersion);
    ms += random.int((2 * 3_600_000) / (histories * 3));
    log.push({
      eventId: uuid(random),
      streamId: draft.streamId,
      streamVersion,
      type: draft.type,
      schemaVersion: EVENT_CATALOG[draft.type].version,
      // Through its schema, as an event is stored.
      data: EVENT_CATALOG[draft.type].schema.parse(draft.data),
      metadata: draft.metadata ?? {},
      position: { commitXid: '1', seq: String(log.length + 1) },
      createdAt: recordedAt(random, ms),
    });
  }
  return log;
}

/** Cuts the log into runs of 1..max events. */
function chunks<T>(random: Random, items: readonly T[], max: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length;) {
    const size = 1 + random.int(max);
    out.push(items.slice(i, i + size));
    i += size;
  }
  return out;
}

async function openSchema(prefix: string): Promise<SqlDatabase & { schema: string }> {
  const schema = `t_${prefix}_${randomBytes(5).toString('hex')}`;
  const db = await openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 4 });
  await db.exec(READ_MODEL_SCHEMA);
  return { ...db, schema };
}

async function emptyTables(db: SqlDatabase & { schema: string }): Promise<void> {
  const { rows } = await db.query<{ t: string }>(
    `select tablename as t from pg_tables where schemaname = $1 and tablename like 'rm\\_%'`,
    [db.schema],
  );
  await db.query(`truncate ${rows.map((r) => `"${db.schema}"."${r.t}"`).join(', ')}`);
}

/**
 * The live projector's rows: batches of random size, each in its own transaction as the consumer
 * runs them; a random share of the deposits has its row written alongside its request event first
 * (the deposit's hot path), which the projector must then leave as it is.
 */
async function projectLive(db: SqlDatabase, random: Random, log: readonly RecordedEvent[]): Promise<void> {
  for (const batch of chunks(random, log, 60)) {
    const alongside = new Set<string>();
    await db.transaction(async (tx) => {
      for (const event of batch) {
        if (event.type !== 'DepositRequested' || !random.chance(0.3)) continue;
        const { rows, columns } = rowAlongsideRequest(event.streamId, evolve(undefined, event));
        const stamped = rows.map((row) => ({ ...row, created_at: event.createdAt, updated_at: event.createdAt }));
        const names = [...Object.keys(columns), 'created_at', 'updated_at'];
        const typed = [
          ...Object.entries(columns).map(([c, t]) => `${c} ${t}`),
          'created_at timestamptz',
          'updated_at timestamptz',
        ];
        await tx.query(
          `insert into rm_transactions (${names.join(', ')}) select ${names.join(', ')}
           from jsonb_to_recordset($1::jsonb) as x(${typed.join(', ')})`,
          [JSON.stringify(stamped)],
        );
        alongside.add(event.streamId.slice('txn-'.length));
      }
      await projectEvents(tx, [...batch], undefined, (id) => alongside.has(id));
    });
  }
}

/** The replay's rows: pages of random size, a small bound so rows are evicted and loaded back. */
async function projectInMemory(db: SqlDatabase, random: Random, log: readonly RecordedEvent[]) {
  const maxHeldRows = 20 + random.int(2_000);
  const memory = new MemoryProjection(maxHeldRows, 1 + random.int(maxHeldRows));
  const inScratch = <T>(work: (tx: import('@transfergate/event-store').SqlExecutor) => Promise<T>) =>
    db.transaction(work);
  for (const page of chunks(random, log, 400)) await memory.applyPage([...page], inScratch);
  await memory.finish(inScratch);
  return memory;
}

/**
 * The read-model fold has two row stores: the live projector's (one batch's rows, read from and
 * written to PostgreSQL around each batch) and the replay's memory projection (rows held across a
 * whole rebuild, evicted and loaded back in bulk). Both are fed the same random event histories:
 * deposits and withdrawals with any of their later events in any order (payment reported,
 * assigned, amount changed, approved, rejected, expired, webhook mismatches), the merchant ledger's
 * postings beside them (posted, reserved, reservation changed, posted or voided), configuration
 * changes (bank accounts, merchants, API settings), recorded around midnight in Türkiye. The live
 * side projects them in batches of random size with a random share of deposits written alongside
 * their request; the memory side in pages of random size under a small random bound. Then every row
 * of every read-model table (rm_transactions, rm_transfers, rm_balances, rm_bank_account_daily, the
 * record tables, rm_settings and the reconciliation tables) is compared column by column on its
 * primary key (diffReadModels, as the replay compares a rebuild with the live tables): there must be
 * no difference, and every history's transaction must be there.
 */
describe('read-model fold: the live and the replay row stores agree on random histories', () => {
  let live: SqlDatabase & { schema: string };
  let rebuilt: SqlDatabase & { schema: string };

  beforeAll(async () => {
    live = await openSchema('fold_live');
    rebuilt = await openSchema('fold_memory');
  });
  afterAll(async () => {
    for (const db of [live, rebuilt]) {
      if (!db) continue;
      await db.close();
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`drop schema if exists "${db.schema}" cascade`);
      await admin.end();
    }
  });

  it(`leaves every row of every table the same on ${RANDOM_HISTORIES.toLocaleString('en')} random histories`, async () => {
    const runs = RANDOM_HISTORIES / HISTORIES_PER_RUN;
    let transactions = 0;
    for (let run = 0; run < runs; run++) {
      const seed = FIRST_SEED + run;
      const random = prng(seed);
      const log = eventLog(random, HISTORIES_PER_RUN, 1 + run * HISTORIES_PER_RUN);
      await emptyTables(live);
      await emptyTables(rebuilt);
      await projectLive(live, random, log);
      await projectInMemory(rebuilt, random, log);
      const diff = await diffReadModels(live, live.schema, rebuilt.schema);
      if (diff.differences.length > 0) {
        throw new Error(`seed ${seed}: ${JSON.stringify(diff.differences.slice(0, 5), null, 1)}`);
      }
      expect(diff.tablesCompared).toEqual(
        expect.arrayContaining([
          'rm_transactions',
          'rm_transfers',
          'rm_balances',
          'rm_bank_account_daily',
          'rm_settings',
        ]),
      );
      const { rows } = await live.query<{ n: string }>('select count(*)::text as n from rm_transactions');
      expect(Number(rows[0]!.n)).toBe(HISTORIES_PER_RUN);
      transactions += Number(rows[0]!.n);
    }
    expect(transactions).toBe(RANDOM_HISTORIES);
  }, 1_800_000);
});
