import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkLedgerInvariants } from '@transfergate/ledger';
import { waitForCheckpoint } from '@transfergate/runtime';
import { kafkaBrokersFor } from '../support/kafka.js';
import { openTestPostgres, TEST_DATABASE_URL } from '../support/postgres.js';
import { assertBuilt, Cluster, http, type ServiceProcess } from './cluster.js';
import { IBAN, Receiver, sha256, sleep } from './distributed-fixture.js';

/**
 * Two replicas of each service that carries traffic: two gateways, two ledgers, two callback
 * dispatchers (and one panel for the approvals), with the shipped command timeout. Clients spread
 * deposits over both gateways as a load balancer would (a gateway that does not answer at all is
 * retried on the other one, with the same external id); every deposit is then approved. Mid-load
 * one gateway, one ledger (the one running the projection) and one dispatcher (the one running the
 * enqueuer) are killed with SIGKILL and not restarted: the surviving replicas carry on. Nothing may
 * be lost or doubled, and the window in which clients get 503s (first to last 503 answer) stays
 * within the transport's bound: 1 s on NATS, 5 s on Kafka.
 */
const ADMIN_PASSWORD = 'S3cure-pass!replicas';
const KEY = { apiKey: 'ak_replicas_1', apiSecret: 'sk_replicas_1' };
const LANES = 6;
const LOAD_BEFORE_KILL_MS = 3_000;
const LOAD_AFTER_KILL_MS = 8_000;
/** One operation's retries stop after this long: a failure, not a hang. */
const OPERATION_DEADLINE_MS = 60_000;
const RETRY_PAUSE_MS = 100;
/** Limit (TIGER_STYLE): operations one lane starts in the whole run. */
const MAX_OPERATIONS_PER_LANE = 500;
const CALLBACKS_DEADLINE_MS = 45_000;

const kafkaBrokers = kafkaBrokersFor('replicas.spec over Kafka');
const TRANSPORTS: Array<{
  name: string;
  available: boolean;
  limitMs: number;
  env: Record<string, string>;
}> = [
  { name: 'NATS', available: true, limitMs: 1_000, env: { TRANSPORT: 'nats' } },
  {
    name: 'Kafka',
    available: kafkaBrokers !== undefined,
    limitMs: 5_000,
    env: { TRANSPORT: 'kafka', KAFKA_BROKERS: kafkaBrokers ?? '' },
  },
];

interface Answer503 {
  atMs: number;
  waitedMs: number;
  what: string;
}

for (const transport of TRANSPORTS)
  (transport.available ? describe : describe.skip)(`two replicas of each service on ${transport.name}`, () => {
    let db: Awaited<ReturnType<typeof openTestPostgres>>;
    let cluster: Cluster;
    let receiver: Receiver;
    let gateways: ServiceProcess[];
    let panel: ServiceProcess;
    let token = '';
    const dir = mkdtempSync(join(tmpdir(), 'tg-replicas-'));
    const answers503: Answer503[] = [];
    const seen = { networkErrors: 0, retried5xx: 0, alreadyFinal: 0 };

    /** A gateway the balancer still sends to: a dead one is left out after its first refused connection. */
    const down = new Set<ServiceProcess>();
    const gatewayFor = (lane: number, attempt: number) => {
      const live = gateways.filter((g) => !down.has(g));
      return live[(lane + attempt) % live.length]!;
    };

    /** Calls until `done`; 5xx and no answer are retried (the contract's safe retries), anything else fails. */
    async function until(
      what: string,
      call: (attempt: number) => Promise<{ status: number; body: Record<string, unknown> }>,
      done: (answer: { status: number; body: Record<string, unknown> }) => boolean,
      retryable: (answer: { status: number; body: Record<string, unknown> }) => boolean = (a) => a.status >= 500,
    ): Promise<{ status: number; body: Record<string, unknown> }> {
      const deadline = Date.now() + OPERATION_DEADLINE_MS;
      for (let attempt = 0; Date.now() < deadline; attempt++) {
        const startedAtMs = Date.now();
        let answer: { status: number; body: Record<string, unknown> };
        try {
          answer = await call(attempt);
        } catch {
          seen.networkErrors++;
          continue;
        }
        if (answer.status === 503) answers503.push({ atMs: Date.now(), waitedMs: Date.now() - startedAtMs, what });
        if (done(answer)) return answer;
        if (!retryable(answer)) throw new Error(`${what}: unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
        if (answer.status >= 500) seen.retried5xx++;
        await sleep(RETRY_PAUSE_MS);
      }
      throw new Error(`${what}: no answer within ${OPERATION_DEADLINE_MS} ms`);
    }

    const viaGateway = (lane: number, attempt: number, method: string, path: string, body?: unknown, headers = {}) => {
      const gateway = gatewayFor(lane, attempt);
      return http(method, gateway.url(path), body, headers, 30_000).catch((error: unknown) => {
        if (gateway.child.exitCode !== null || gateway.child.signalCode !== null) down.add(gateway);
        throw error;
      });
    };

    async function depositAndApprove(lane: number, externalId: string): Promise<void> {
      const amount = 1_000 + lane;
      await until(
        `deposit ${externalId}`,
        (attempt) =>
          viaGateway(lane, attempt, 'POST', '/deposit/bank', {
            apikey: KEY.apiKey,
            transaction_id: externalId,
            amount,
            fullname: 'Ayşe Yılmaz',
            hash: sha256(`${KEY.apiKey}${externalId}${KEY.apiSecret}${amount}`),
          }),
        (a) => a.status === 201 && a.body.status === true,
      );
      const status = await until(
        `status ${externalId}`,
        (attempt) =>
          viaGateway(lane, attempt, 'POST', `/status/${externalId}`, undefined, {
            'x-api-key': KEY.apiKey,
            'x-api-secret': KEY.apiSecret,
          }),
        (a) => a.status < 300 && typeof a.body.uuid === 'string',
      );
      const approved = await until(
        `approve ${externalId}`,
        () =>
          http(
            'POST',
            panel.url('/panel/deposit/approve'),
            { id: status.body.uuid },
            { authorization: `Bearer ${token}` },
          ),
        (a) =>
          (a.status < 300 && a.body.state === 'approved') ||
          (a.status === 422 && a.body.errorCode === 'transaction_final'),
        (a) => a.status >= 500 || a.status === 404,
      );
      // Applied, but its answer lost with a killed ledger: the retry finds it final, never applied twice.
      if (approved.status === 422) seen.alreadyFinal++;
    }

    beforeAll(async () => {
      assertBuilt();
      db = await openTestPostgres(`replicas_${transport.name.toLowerCase()}`);
      receiver = await new Receiver().start();
      cluster = new Cluster(TEST_DATABASE_URL, db.schema, {
        // Shipped command timeout and Kafka session; callbacks fast so the run stays short.
        CALLBACK_REQUEST_TIMEOUT_MS: '3000',
        CALLBACK_LEASE_MS: '4000',
        CALLBACK_RETRY_SCHEDULE_MS: '0,300,300,300,1000,1000,1000,1000',
        RATE_LIMIT_PER_MINUTE: '0',
        ...transport.env,
      });
      // The first ledger creates the tables; the rest start together. Each replica has a name of its
      // own, as a pod has (INSTANCE_ID): a live replica removes a dead one from its Kafka group by it.
      await cluster.start('ledger', undefined, { INSTANCE_ID: 'ledger-a' });
      const started = await Promise.all([
        cluster.start('ledger', undefined, { INSTANCE_ID: 'ledger-b' }),
        cluster.start('gateway-api', undefined, { INSTANCE_ID: 'gateway-a' }),
        cluster.start('gateway-api', undefined, { INSTANCE_ID: 'gateway-b' }),
        cluster.start('callback-dispatcher', undefined, { INSTANCE_ID: 'dispatcher-a' }),
        cluster.start('callback-dispatcher', undefined, { INSTANCE_ID: 'dispatcher-b' }),
        cluster.start('panel-api'),
      ]);
      gateways = [started[1]!, started[2]!];
      panel = started[5]!;
      const file = join(dir, 'bootstrap.json');
      writeFileSync(
        file,
        JSON.stringify({
          infrastructures: [
            {
              name: 'Replicas H2H',
              slug: 'replicas',
              apiForm: 'h2h',
              callbackFormat: 'h2h',
              callback_deposit: `${receiver.base}/cb/deposit`,
              callback_withdrawal: `${receiver.base}/cb/withdrawal`,
            },
          ],
          merchants: [
            {
              name: 'Replicas',
              minAmount: 1,
              maxAmount: 1000000,
              depositCommissionPercent: 1,
              withdrawalCommissionPercent: 1,
              overdraftLimit: 0,
              providers: [{ name: 'replicas-h2h', infrastructure: 'replicas', ...KEY }],
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
      await cluster.provision(file, ADMIN_PASSWORD);
      const login = await http('POST', panel.url('/api/auth/login'), { username: 'admin', password: ADMIN_PASSWORD });
      expect(login.status).toBe(201);
      token = String(login.body.accessToken);
    }, 180_000);

    afterAll(async () => {
      await cluster?.stopAll();
      await receiver?.close();
      await db?.close();
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it(`loses and doubles nothing when one of each is killed under load; 503s last at most ${transport.limitMs} ms`, async () => {
      const leaseOwner = async (consumer: string) =>
        (
          await db.query<{ owner: string | null }>(
            `select lease_owner as owner from es_checkpoints where consumer = $1`,
            [consumer],
          )
        ).rows[0]?.owner ?? '';
      const holder = (service: string, owner: string) =>
        cluster.processes.find((p) => p.service === service && owner.includes(`:${p.child.pid}:`));

      const done: string[] = [];
      let stopAtMs = Number.POSITIVE_INFINITY;
      const lanes = Array.from({ length: LANES }, async (_, lane) => {
        for (let k = 0; k < MAX_OPERATIONS_PER_LANE && Date.now() < stopAtMs; k++) {
          const externalId = `R-${lane}-${k}`;
          await depositAndApprove(lane, externalId);
          done.push(externalId);
        }
      });

      await sleep(LOAD_BEFORE_KILL_MS);
      const victims = [
        gateways[0]!,
        holder('ledger', await leaseOwner('ledger-read-models')),
        holder('callback-dispatcher', await leaseOwner('callback-dispatcher')),
      ];
      expect(victims.map((v) => v?.service)).toEqual(['gateway-api', 'ledger', 'callback-dispatcher']);
      const doneAtKill = done.length;
      const killedAtMs = Date.now();
      for (const victim of victims) victim!.child.kill('SIGKILL');
      for (const victim of victims) expect((await victim!.exited).signal).toBe('SIGKILL');
      stopAtMs = killedAtMs + LOAD_AFTER_KILL_MS;
      await Promise.all(lanes);
      const doneAfterKill = done.length - doneAtKill;

      // Every deposit once: one transaction per external id, approved, as the surviving gateway says.
      expect(new Set(done).size).toBe(done.length);
      const { rows: streams } = await db.query<{ n: string }>(
        `select count(*)::text n from es_streams where stream_id like 'txn-%'`,
      );
      expect(Number(streams[0]!.n)).toBe(done.length);
      for (const externalId of done) {
        const status = await http('POST', gateways[1]!.url(`/status/${externalId}`), undefined, {
          'x-api-key': KEY.apiKey,
          'x-api-secret': KEY.apiSecret,
        });
        expect([externalId, status.body.status]).toEqual([externalId, 'approved']);
      }
      // Every approval's callback delivered under one webhook-id, none missing, none with a second id.
      const deadline = Date.now() + CALLBACKS_DEADLINE_MS;
      while (receiver.distinctIds().size < done.length && Date.now() < deadline) await sleep(200);
      const ids = new Map<string, Set<string>>();
      for (const r of receiver.received) {
        const key = String(r.body.transactionId);
        ids.set(key, (ids.get(key) ?? new Set()).add(r.webhookId));
      }
      expect(receiver.distinctIds().size).toBe(done.length);
      for (const externalId of done) expect([externalId, ids.get(externalId)?.size]).toEqual([externalId, 1]);
      await waitForCheckpoint(db, 'ledger-read-models', 30_000);
      expect(await checkLedgerInvariants(db)).toEqual([]);

      const first = answers503[0]?.atMs;
      const last = answers503.at(-1)?.atMs;
      const windowMs = first === undefined || last === undefined ? 0 : last - first;
      const longestWaitMs = Math.max(0, ...answers503.map((a) => a.waitedMs));
      process.stderr.write(
        `replicas ${transport.name}: ${done.length} deposits approved (${doneAfterKill} after the kills); ` +
          `${answers503.length} answers 503 over ${windowMs} ms (from ${first === undefined ? '-' : first - killedAtMs} ms ` +
          `after the kills; longest wait for one ${longestWaitMs} ms), ${seen.networkErrors} without an answer retried ` +
          `on the other gateway, ${seen.retried5xx} 5xx retried, ${seen.alreadyFinal} approvals found already applied, ` +
          `${receiver.received.length - receiver.distinctIds().size} callbacks sent again under their webhook-id\n`,
      );
      expect(doneAfterKill).toBeGreaterThan(0);
      expect(windowMs).toBeLessThanOrEqual(transport.limitMs);
    }, 180_000);
  });
