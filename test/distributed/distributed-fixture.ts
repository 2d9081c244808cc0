import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaBrokersFor } from '../support/kafka.js';
import { openTestPostgres, TEST_DATABASE_URL } from '../support/postgres.js';
import { assertBuilt, Cluster, http, type ServiceProcess } from './cluster.js';

/**
 * The cluster distributed.spec.ts boots once per transport and its scenarios (./scenarios/) share: the
 * five services as separate processes on one PostgreSQL schema and one transport (two ledgers, two
 * dispatchers), provisioned with an H2H, a Merchant API and a rotatable provider, an admin signed in,
 * a slow callback receiver, and the client helpers that retry only what the contract says is safe.
 */

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const ADMIN_PASSWORD = 'S3cure-pass!dist';
export const KEY = { apiKey: 'ak_dist_1', apiSecret: 'sk_dist_1' };
/** A Merchant API provider: its deposits answer a payment URL served by the gateway process. */
export const MERCHANT_KEY = { apiKey: 'ak_dist_m1', apiSecret: 'sk_dist_m1' };
/** A provider of its own for the cache test, which rotates its secret and disables it. */
export const ROTATED_KEY = { apiKey: 'ak_dist_r1', apiSecret: 'sk_dist_r1' };
/**
 * How soon after the panel's answer the separate gateway must refuse the old record: far under its
 * cache's 5 s TTL, which is what a gateway without the broadcast notice would take.
 */
export const STALE_AFTER_ANSWER_LIMIT_MS = 1_000;
export const READ_YOUR_WRITES_ROUNDS = 200;
export const IBAN = 'TR330006100519786457841326';
/** Workload under the kills: deposits and withdrawals, each created, then approved. */
export const CHAOS_DEPOSITS = 24;
export const CHAOS_WITHDRAWALS = 8;
export const LANES = 4;
/** A client gives up on one operation after this long (leases of killed instances expire well within it). */
export const OPERATION_DEADLINE_MS = 90_000;
export const RECEIVER_DELAY_MS = 150;

export interface Received {
  webhookId: string;
  atMs: number;
  /** When the receiver answers this request: its delay is fixed on arrival. */
  answerAtMs: number;
  path: string;
  body: { transactionId?: string; status?: string; type?: string };
}

export class Receiver {
  readonly received: Received[] = [];
  private server?: Server;
  base = '';
  delayMs = RECEIVER_DELAY_MS;

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        let body: Received['body'] = {};
        try {
          body = JSON.parse(raw) as Received['body'];
        } catch {
          // kept as empty: the assertion on transaction ids will fail
        }
        const delayMs = this.delayMs;
        const atMs = Date.now();
        this.received.push({
          webhookId: String(req.headers['webhook-id'] ?? ''),
          atMs,
          answerAtMs: atMs + delayMs,
          path: req.url ?? '',
          body,
        });
        // Slow enough that deliveries are in flight when a dispatcher is killed.
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), delayMs);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.base = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  distinctIds(): Map<string, Received> {
    const byId = new Map<string, Received>();
    for (const r of this.received) if (!byId.has(r.webhookId)) byId.set(r.webhookId, r);
    return byId;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts of what the clients saw, to report how the outage looked from outside. */
export const seen = { retriedAfter503: 0, retriedAfterNetworkError: 0, replayed: 0, alreadyFinal: 0 };

/** Retries only what the contract says is safe: 5xx / no answer, with the same external id. */
export async function untilAnswered(
  what: string,
  call: () => Promise<{ status: number; body: Record<string, unknown> }>,
  done: (answer: { status: number; body: Record<string, unknown> }) => boolean,
  retryable: (answer: { status: number; body: Record<string, unknown> }) => boolean = (a) => a.status >= 500,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const deadline = Date.now() + OPERATION_DEADLINE_MS;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const answer = await call();
      if (done(answer)) return answer;
      if (!retryable(answer)) throw new Error(`${what}: unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
      if (answer.status >= 500) seen.retriedAfter503++;
      last = `${answer.status} ${JSON.stringify(answer.body)}`;
    } catch (error) {
      if ((error as Error).message.startsWith(`${what}: unexpected`)) throw error;
      seen.retriedAfterNetworkError++;
      last = String(error);
    }
    await sleep(250);
  }
  throw new Error(`${what}: no answer within ${OPERATION_DEADLINE_MS} ms (last: ${last})`);
}

export interface TransportUnderTest {
  name: string;
  /** False: the suite is reported as skipped (the reason is on stderr), never as passed. */
  available: boolean;
  env: Record<string, string>;
}
const kafkaBrokers = kafkaBrokersFor('distributed.spec over Kafka');
export const TRANSPORTS: TransportUnderTest[] = [
  { name: 'NATS', available: true, env: { TRANSPORT: 'nats' } },
  {
    name: 'Kafka',
    available: kafkaBrokers !== undefined,
    // The shortest session the broker allows: a SIGKILLed ledger's partitions move on after 6 s. A
    // rebalance (the second ledger joining while the panel's start-up query waits) pauses the ledger
    // group's commands for a second, several on a loaded 2-core machine: a longer wait than NATS's 3 s.
    env: {
      TRANSPORT: 'kafka',
      KAFKA_BROKERS: kafkaBrokers ?? '',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      COMMAND_TIMEOUT_MS: '10000',
    },
  },
];

export interface DistributedFixture {
  transport: TransportUnderTest;
  db: Awaited<ReturnType<typeof openTestPostgres>>;
  cluster: Cluster;
  receiver: Receiver;
  gateway: ServiceProcess;
  panel: ServiceProcess;
  webhooks: ServiceProcess;
  token: string;
  h2h: (
    kind: 'deposit' | 'withdrawal',
    externalId: string,
    amount: number,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; body: Record<string, unknown> }>;
  uuidOf: (externalId: string) => Promise<string>;
  approve: (kind: 'deposit' | 'withdrawal', uuid: string) => Promise<void>;
}

/**
 * Boots the cluster in the calling describe's beforeAll and stops it in its afterAll; the getter is
 * for the tests (it answers what beforeAll set up).
 */
export function useDistributedCluster(transport: TransportUnderTest): () => DistributedFixture {
  let db: Awaited<ReturnType<typeof openTestPostgres>>;
  let cluster: Cluster;
  let receiver: Receiver;
  let gateway: ServiceProcess;
  let panel: ServiceProcess;
  let webhooks: ServiceProcess;
  let token = '';
  const dir = mkdtempSync(join(tmpdir(), 'tg-dist-'));

  const h2h = (
    kind: 'deposit' | 'withdrawal',
    externalId: string,
    amount: number,
    headers: Record<string, string> = {},
  ) => {
    const body = {
      apikey: KEY.apiKey,
      transaction_id: externalId,
      amount,
      fullname: 'Ayşe Yılmaz',
      hash: sha256(`${KEY.apiKey}${externalId}${KEY.apiSecret}${Math.round(amount)}`),
      ...(kind === 'withdrawal' ? { iban: IBAN } : {}),
    };
    return untilAnswered(
      `${kind} ${externalId}`,
      () => http('POST', gateway.url(kind === 'deposit' ? '/deposit/bank' : '/withdrawal/bank'), body, headers),
      (a) => a.status < 300 && a.body.status === true,
    );
  };

  const uuidOf = async (externalId: string): Promise<string> => {
    const answer = await untilAnswered(
      `status ${externalId}`,
      () =>
        http('POST', gateway.url(`/status/${externalId}`), undefined, {
          'x-api-key': KEY.apiKey,
          'x-api-secret': KEY.apiSecret,
        }),
      (a) => a.status < 300 && typeof a.body.uuid === 'string',
      // 404 until the projection (possibly being taken over from a killed ledger) includes it.
      (a) => a.status >= 500 || a.status === 404,
    );
    return String(answer.body.uuid);
  };

  const approve = async (kind: 'deposit' | 'withdrawal', uuid: string) => {
    const answer = await untilAnswered(
      `approve ${kind} ${uuid}`,
      () => http('POST', panel.url(`/panel/${kind}/approve`), { id: uuid }, { authorization: `Bearer ${token}` }),
      (a) =>
        (a.status < 300 && a.body.state === 'approved') ||
        (a.status === 422 && a.body.errorCode === 'transaction_final'),
      (a) => a.status >= 500 || a.status === 404,
    );
    // An approval that was applied but whose answer was lost comes back as transaction_final: it is
    // approved (checked below through the gateway), never applied twice.
    if (answer.status === 422) seen.alreadyFinal++;
  };

  beforeAll(async () => {
    assertBuilt();
    db = await openTestPostgres(`dist_${transport.name.toLowerCase()}`);
    receiver = await new Receiver().start();
    cluster = new Cluster(TEST_DATABASE_URL, db.schema, {
      COMMAND_TIMEOUT_MS: '3000',
      CALLBACK_REQUEST_TIMEOUT_MS: '5000',
      CALLBACK_LEASE_MS: '6000',
      CALLBACK_RETRY_SCHEDULE_MS: '0,300,300,300,1000,1000,1000,1000',
      RATE_LIMIT_PER_MINUTE: '0',
      ...transport.env,
    });
    // The first ledger creates the event store and read-model tables; everything else starts after it.
    // Replicas of one service have names of their own, as pods do (INSTANCE_ID; a restart keeps it).
    await cluster.start('ledger', undefined, { INSTANCE_ID: 'ledger-a' });
    const others = await Promise.all([
      cluster.start('ledger', undefined, { INSTANCE_ID: 'ledger-b' }),
      cluster.start('callback-dispatcher', undefined, { INSTANCE_ID: 'dispatcher-a' }),
      cluster.start('callback-dispatcher', undefined, { INSTANCE_ID: 'dispatcher-b' }),
      cluster.start('gateway-api'),
      cluster.start('panel-api'),
      cluster.start('webhook-ingest'),
    ]);
    gateway = others[3]!;
    panel = others[4]!;
    webhooks = others[5]!;
    const file = join(dir, 'bootstrap.json');
    writeFileSync(
      file,
      JSON.stringify({
        infrastructures: [
          {
            name: 'Dist H2H',
            slug: 'dist',
            apiForm: 'h2h',
            callbackFormat: 'h2h',
            callback_deposit: `${receiver.base}/cb/deposit`,
            callback_withdrawal: `${receiver.base}/cb/withdrawal`,
            webhookAllowedIps: ['127.0.0.1/32'],
          },
          {
            name: 'Dist Merchant',
            slug: 'dist-merchant',
            apiForm: 'merchant',
            callbackFormat: 'merchant',
            callback_deposit: `${receiver.base}/cb-merchant/deposit`,
            callback_withdrawal: `${receiver.base}/cb-merchant/withdrawal`,
          },
        ],
        merchants: [
          {
            name: 'Dist',
            minAmount: 1,
            maxAmount: 1000000,
            depositCommissionPercent: 1.5,
            withdrawalCommissionPercent: 1,
            overdraftLimit: 0,
            providers: [
              { name: 'dist-h2h', infrastructure: 'dist', ...KEY },
              { name: 'dist-merchant', infrastructure: 'dist-merchant', ...MERCHANT_KEY },
              { name: 'dist-rotated', infrastructure: 'dist', ...ROTATED_KEY },
            ],
          },
        ],
        bankAccounts: [
          {
            bank: 'Ziraat Bankası',
            iban: IBAN,
            holderName: 'Transfer Ltd',
            minAmount: 1,
            maxAmount: 1000000,
            dailyLimit: 1000000000,
          },
        ],
      }),
    );
    const out = await cluster.provision(file, ADMIN_PASSWORD);
    expect(out).toMatch(/provisioning: \d+ records changed/);
    const login = await http('POST', panel.url('/api/auth/login'), { username: 'admin', password: ADMIN_PASSWORD });
    expect(login.status).toBe(201);
    token = String(login.body.accessToken);
  }, 240_000);

  afterAll(async () => {
    await cluster?.stopAll();
    await receiver?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  return () => ({ transport, db, cluster, receiver, gateway, panel, webhooks, token, h2h, uuidOf, approve });
}
