import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { ConfigureBankAccountCommand, DomainError } from '@transfergate/contracts';
import { LEDGER_PROJECTION } from '@transfergate/ledger';
import { TEST_DATABASE_URL } from '../support/postgres.js';
import { issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { BOOTSTRAP_ACCOUNT, requestDeposit } from '../support/deposit-command.js';
import { panelClient } from '../panel/panel-client.js';

/** How long a deposit may take here: well under the projection wait's bound (5 s), which a wait would reach. */
const ANSWER_BOUND_MS = 2_000;

/**
 * A new deposit is answered without waiting for the projection (its row is written with its
 * event; its daily volume counted by the deposit-context cache at once). Proved with the
 * projection held still: its checkpoint row locked from another connection, so no batch commits.
 * Every answer must still be true at once: the deposit readable by number, and the account's daily
 * limit applied to the very next deposit. Released, the projection must end where it always did.
 */
describe('deposits answered ahead of a held projection on PostgreSQL', () => {
  let app: TestApp;
  let holder: pg.Client;
  let schema: string;
  let token: string;
  const panel = () => panelClient(app);
  let seq = 0;
  const nextId = () => `AHEAD-${++seq}-${Date.now()}`;

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    token = (await panelClient(app).login('admin', 'S3cure-pass!')).accessToken;
    const { rows } = await app.db.query<{ schema: string }>('select current_schema() as schema');
    schema = rows[0]!.schema;
    holder = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await app?.stop();
  });

  const deposit = (amountKurus: bigint, externalId = nextId()) => requestDeposit(app, amountKurus, externalId);
  const timed = async <T>(work: Promise<T>): Promise<{ value: T; ms: number }> => {
    const started = performance.now();
    const value = await work;
    return { value, ms: performance.now() - started };
  };
  const limitDailyVolumeTo = (dailyLimitKurus: bigint) =>
    app.commands.execute(
      new ConfigureBankAccountCommand(
        { ...BOOTSTRAP_ACCOUNT, dailyLimitKurus },
        { source: 'test', operatorId: 'op-1' },
      ),
    );
  const holdProjection = async () => {
    await holder.query('begin');
    await holder.query('select 1 from es_checkpoints where consumer = $1 for update', [LEDGER_PROJECTION]);
  };
  const refusalOf = (work: Promise<unknown>) =>
    work.then(
      () => 'accepted',
      (error: unknown) => (error instanceof DomainError ? error.errorCode : String(error)),
    );
  const issuedToday = async (): Promise<bigint> => {
    const { rows } = await app.db.query<{ issued: string }>(
      `select coalesce(sum(issued_kurus), 0)::text as issued from rm_bank_account_daily
       where day = ((now() at time zone 'UTC') + interval '3 hours')::date`,
    );
    return BigInt(rows[0]!.issued);
  };

  it('answers, shows and counts each deposit at once while the projection is held, and ends where it would', async () => {
    // Warm: the deposit-context cache loads in the background on the first deposit.
    await deposit(10_000n);
    await app.settle();
    await deposit(10_000n);
    await app.settle();
    const issued = await issuedToday();
    await limitDailyVolumeTo(issued + 25_000n);

    await holdProjection();
    try {
      const first = await timed(deposit(10_000n, `${nextId()}-first`));
      expect(first.ms).toBeLessThan(ANSWER_BOUND_MS);
      // In the panel's list at once, over HTTP, though no projection batch has committed.
      const listed = await timed(
        panel().get(`/panel/transactions?q=${encodeURIComponent(first.value.externalId)}`, token),
      );
      expect(listed.ms).toBeLessThan(ANSWER_BOUND_MS);
      expect(listed.value.body.items).toEqual([
        expect.objectContaining({ externalId: first.value.externalId, state: 'awaiting_payment' }),
      ]);

      const second = await timed(deposit(10_000n));
      expect(second.ms).toBeLessThan(ANSWER_BOUND_MS);
      // 20,000 of 25,000 counted, though the table has none of it: 10,000 more is over the limit.
      expect(await refusalOf(deposit(10_000n))).toBe('no_receiving_account');
      await deposit(5_000n);
      expect(await issuedToday()).toBe(issued);
    } finally {
      await holder.query('rollback');
    }

    await app.settle();
    expect(await issuedToday()).toBe(issued + 25_000n);
    // The rows written with the events are the projection's own (the event's time to the
    // millisecond, version 1), and the projection, released, left them as they were.
    const { rows } = await app.db.query<{ n: string; at_ok: boolean }>(
      `select count(*)::text as n, bool_and(t.created_at = date_trunc('milliseconds', e.created_at)
         and t.updated_at = t.created_at and t.version = 1) as at_ok
       from rm_transactions t join es_events e on e.stream_id = 'txn-' || t.transaction_id and e.stream_version = 1`,
    );
    expect(Number(rows[0]!.n)).toBe(5);
    expect(rows[0]!.at_ok).toBe(true);
  });

  it('a process deciding from SQL first waits for the deposits another answered ahead of the projection', async () => {
    // A second process of the same database: the first holds the projection's lease, so this one
    // decides deposits from the tables, and cannot know what the first answered ahead of them.
    const second = await startTestApp('postgres', {}, schema);
    try {
      await app.settle();
      await limitDailyVolumeTo((await issuedToday()) + 25_000n);
      await holdProjection();
      let decided: Promise<string>;
      try {
        await deposit(10_000n);
        await deposit(10_000n);
        decided = refusalOf(requestDeposit(second, 10_000n, nextId()));
        // Long enough for the second process to decide, were it to decide from the tables as they are.
        await setTimeout(300);
      } finally {
        await holder.query('rollback');
      }
      // 20,000 of 25,000 were answered before it decided: 10,000 more is over the limit.
      expect(await decided).toBe('no_receiving_account');
    } finally {
      await second.stop();
    }
  });
});
