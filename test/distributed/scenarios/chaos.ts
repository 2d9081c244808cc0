import { checkLedgerInvariants } from '@transfergate/ledger';
import { waitForCheckpoint } from '@transfergate/runtime';
import { http, type ServiceProcess } from '../cluster.js';
import { KEY, RECEIVER_DELAY_MS, seen, sleep, type DistributedFixture } from '../distributed-fixture.js';

/** Workload under the kills: deposits and withdrawals, each created, then approved. */
const CHAOS_DEPOSITS = 24;
const CHAOS_WITHDRAWALS = 8;
const LANES = 4;

/** Transactions through approval to delivered callbacks, then a ledger and a dispatcher killed mid-run. */
export function registerChaos(fixture: () => DistributedFixture): void {
  it('drives a deposit and a withdrawal through approval to a delivered callback', async () => {
    const { db, cluster, receiver, h2h, uuidOf, approve } = fixture();
    await h2h('deposit', 'D-0', 100_000, { 'x-request-id': `dist-${cluster.prefix}` });
    await approve('deposit', await uuidOf('D-0'));
    // The gateway's request id crossed the transport: the ledger process stamped it on the event.
    const { rows: stamped } = await db.query<{ request_id: string }>(
      `select metadata->>'requestId' as request_id from es_events where type = 'DepositRequested' and data->>'externalId' = 'D-0'`,
    );
    expect(stamped).toEqual([{ request_id: `dist-${cluster.prefix}` }]);
    await h2h('withdrawal', 'W-0', 250);
    await approve('withdrawal', await uuidOf('W-0'));
    const deadline = Date.now() + 30_000;
    while (receiver.distinctIds().size < 2 && Date.now() < deadline) await sleep(100);
    const bodies = [...receiver.distinctIds().values()].map((r) => [r.path, r.body.transactionId, r.body.status]);
    expect(bodies).toEqual(
      expect.arrayContaining([
        ['/cb/deposit', 'D-0', 'APPROVED'],
        ['/cb/withdrawal', 'W-0', 'APPROVED'],
      ]),
    );
  }, 120_000);

  it('loses and doubles nothing when a ledger and a dispatcher are killed (SIGKILL) mid-run and restarted', async () => {
    const { db, cluster, receiver, gateway, h2h, uuidOf, approve } = fixture();
    const work = [
      ...Array.from({ length: CHAOS_DEPOSITS }, (_, i) => ({
        kind: 'deposit' as const,
        id: `CD-${i}`,
        amount: 1_000 + i,
      })),
      ...Array.from({ length: CHAOS_WITHDRAWALS }, (_, i) => ({
        kind: 'withdrawal' as const,
        id: `CW-${i}`,
        amount: 100 + i,
      })),
    ].sort((a, b) => (a.id.slice(3) + a.kind).localeCompare(b.id.slice(3) + b.kind));
    let next = 0;
    let finished = 0;
    const lane = async () => {
      while (next < work.length) {
        const item = work[next++]!;
        await h2h(item.kind, item.id, item.amount);
        await approve(item.kind, await uuidOf(item.id));
        finished++;
      }
    };
    const lanes = Array.from({ length: LANES }, () => lane());

    // Mid-run: requests in flight on the ledgers, callbacks in flight at the slow receiver.
    while (finished < work.length / 3) await sleep(20);
    // The ledger victim is the one running the projection (it holds the consumer's lease).
    const owns = (owner: string | null | undefined, p: ServiceProcess) => !!owner?.includes(`:${p.child.pid}:`);
    const leaseOwner = async (consumer: string) =>
      (
        await db.query<{ owner: string | null }>(
          `select lease_owner as owner from es_checkpoints where consumer = $1`,
          [consumer],
        )
      ).rows[0]?.owner;
    const projectionOwner = () => leaseOwner('ledger-read-models');
    const enqueuerOwner = () => leaseOwner('callback-dispatcher');
    const ledgerOwner = await projectionOwner();
    const ledgerVictim = cluster.processes.find((p) => p.service === 'ledger' && owns(ledgerOwner, p))!;
    expect(ledgerVictim).toBeDefined();
    // The dispatcher victim runs the enqueuer (the instance that enqueues a callback also sends it
    // first) and is killed while it has a callback on the wire: the receiver has the request (its
    // answer is more than 1 s away) and the delivery row is leased to that process.
    const dispatcherOwner = await enqueuerOwner();
    const dispatcherVictim = cluster.processes.find(
      (p) => p.service === 'callback-dispatcher' && owns(dispatcherOwner, p),
    )!;
    expect(dispatcherVictim).toBeDefined();
    // Slower than usual but within CALLBACK_REQUEST_TIMEOUT_MS: the attempts in flight succeed unless killed.
    receiver.delayMs = 2_000;
    let inFlight: string[] = [];
    const spotBy = Date.now() + 30_000;
    while (inFlight.length === 0 && Date.now() < spotBy) {
      const { rows } = await db.query<{ id: string }>(
        `select delivery_id::text as id from cb_deliveries
     where state = 'pending' and lease_owner like $1 and lease_until > now()`,
        [`%:${dispatcherVictim.child.pid}:%`],
      );
      const now = Date.now();
      inFlight = rows
        .map((r) => r.id)
        // Still unanswered for a while yet: a request that arrived just before the switch to the slow
        // receiver keeps its short delay and could be answered (and recorded) before the kill lands.
        .filter((id) => receiver.received.some((r) => r.webhookId === id && r.answerAtMs - now > 1_000));
      if (inFlight.length === 0) await sleep(25);
    }
    expect(inFlight.length).toBeGreaterThan(0);
    ledgerVictim.child.kill('SIGKILL');
    dispatcherVictim.child.kill('SIGKILL');
    expect((await ledgerVictim.exited).signal).toBe('SIGKILL');
    expect((await dispatcherVictim.exited).signal).toBe('SIGKILL');
    receiver.delayMs = RECEIVER_DELAY_MS;
    await sleep(1_000);
    // Restarted on the same ports, as an orchestrator would.
    await Promise.all([
      cluster.start('ledger', ledgerVictim.port, ledgerVictim.env),
      cluster.start('callback-dispatcher', dispatcherVictim.port, dispatcherVictim.env),
    ]);
    await Promise.all(lanes);

    // Every request answered: each external id is one transaction, approved, seen through the gateway.
    for (const item of work) {
      const status = await http('POST', gateway.url(`/status/${item.id}`), undefined, {
        'x-api-key': KEY.apiKey,
        'x-api-secret': KEY.apiSecret,
      });
      expect([item.id, status.body.status]).toEqual([item.id, 'approved']);
    }
    const { rows: counts } = await db.query<{ n: string }>(
      `select count(*)::text n from es_streams where stream_id like 'txn-%'`,
    );
    expect(Number(counts[0]!.n)).toBe(work.length + 2);

    // Every approval's callback delivered: one webhook-id per final transaction, none missing.
    const expected = work.length + 2;
    const deadline = Date.now() + 60_000;
    while (receiver.distinctIds().size < expected && Date.now() < deadline) await sleep(200);
    const distinct = receiver.distinctIds();
    const byTransaction = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      const key = `${r.path}:${r.body.transactionId}`;
      byTransaction.set(key, (byTransaction.get(key) ?? new Set()).add(r.webhookId));
    }
    expect(distinct.size).toBe(expected);
    for (const item of work) {
      expect([item.id, byTransaction.get(`/cb/${item.kind}:${item.id}`)?.size]).toEqual([item.id, 1]);
    }
    // Wire duplicates (same webhook-id) are possible only for a delivery the killed dispatcher had sent.
    const duplicates = receiver.received.length - distinct.size;
    // The dispatcher records an answer after the receiver's (slow) 200: wait for the log to say so.
    const countDeliveries = async () =>
      (
        await db.query<{ n: string; delivered: string }>(
          `select count(*)::text n, count(*) filter (where state = 'delivered')::text delivered from cb_deliveries`,
        )
      ).rows[0];
    let deliveries = await countDeliveries();
    const recordedBy = Date.now() + 30_000;
    while (deliveries?.delivered !== String(expected) && Date.now() < recordedBy) {
      await sleep(200);
      deliveries = await countDeliveries();
    }
    expect(deliveries).toEqual({ n: String(expected), delivered: String(expected) });
    // The killed dispatcher's callbacks on the wire were taken over after their lease and sent again
    // with the same webhook-id (at-least-once, detected by webhook-id): never lost, never a second id.
    for (const id of inFlight) {
      expect([id, receiver.received.filter((r) => r.webhookId === id).length >= 2]).toEqual([id, true]);
    }
    // The consumers the killed processes ran are taken over by other instances once their leases
    // (15 s) expire, and catch up with every event appended meanwhile.
    const takenOverBy = Date.now() + 40_000;
    while (
      (owns(await projectionOwner(), ledgerVictim) || owns(await enqueuerOwner(), dispatcherVictim)) &&
      Date.now() < takenOverBy
    ) {
      await sleep(250);
    }
    expect(owns(await projectionOwner(), ledgerVictim)).toBe(false);
    expect(owns(await enqueuerOwner(), dispatcherVictim)).toBe(false);
    await waitForCheckpoint(db, 'ledger-read-models', 30_000);
    await waitForCheckpoint(db, 'callback-dispatcher', 30_000);

    // The ledger's invariants hold after the crash.
    expect(await checkLedgerInvariants(db)).toEqual([]);
    console.log(
      `distributed chaos: ${work.length} operations, ${seen.retriedAfter503} retries after 5xx, ` +
        `${seen.retriedAfterNetworkError} after no answer, ${seen.alreadyFinal} approvals found already applied, ` +
        `${duplicates} duplicate callback deliveries (same webhook-id)`,
    );
  }, 300_000);
}
