import { CommandBus } from '@nestjs/cqrs';
import { MerchantRules } from '../../services/ledger/src/commands/merchant-rules.js';
import { matchClaim } from '../../services/ledger/src/decisions/match-statement-line.decide.js';
import { LedgerRepository } from '../../services/ledger/src/persistence/ledger-repository.js';
import { LEDGER_SETTINGS } from '../../services/ledger/src/ledger.settings.js';
import { LineDecisions } from '../../services/ledger/src/reconciliation/line-decisions.service.js';
import { ReconciliationStore } from '../../services/ledger/src/reconciliation/reconciliation-store.js';
import { checkMatchInvariants } from '../../services/ledger/src/reconciliation/read-model/match-invariants.js';
import { h2hBody } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { camt } from './statement-files.js';

const KEY = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };
const DAY = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
const ROUNDS = 6;

/**
 * Decisions on one statement line taken at the same moment by two ledger processes. Each instance of
 * LineDecisions below stands for one process: it has its own in-process queue of decisions and
 * shares only the event store, as two ledger replicas do. A bank credit must pay one deposit at most,
 * and a dismissed line must approve nothing.
 */
describe('statement line decisions racing across ledger processes (PostgreSQL)', () => {
  let app: TestApp;
  let admin: string;
  let accountId: string;
  let first: LineDecisions;
  let second: LineDecisions;
  let n = 0;

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    const client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    const accounts = await client.get('/panel/bank-accounts', admin);
    accountId = (accounts.body.items ?? accounts.body)[0].id;
    const get = <T>(token: new (...args: never[]) => T) => app.app.get(token, { strict: false });
    first = get(LineDecisions);
    second = new LineDecisions(
      get(LedgerRepository),
      get(ReconciliationStore),
      get(CommandBus),
      get(MerchantRules),
      app.app.get(LEDGER_SETTINGS, { strict: false }),
    );
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function deposit(amount: number) {
    const id = `RACE-${++n}-${Date.now()}`;
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEY, id, amount))).status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${id}`,
      {},
      { 'x-api-key': KEY.apiKey, 'x-api-secret': KEY.apiSecret },
    );
    return String(status.body.uuid);
  }

  async function importLine(ref: string, amountKurus: bigint) {
    const res = await fetch(`${app.baseUrl}/panel/reconciliation/accounts/${accountId}/statements?format=camt053`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${admin}` },
      body: camt([
        { ref, day: DAY, time: '10:00', direction: 'credit', amountKurus, description: 'havale', name: 'Ali Veli' },
      ]),
    });
    expect(res.status).toBeLessThan(300);
    const lines = await fetch(`${app.baseUrl}/panel/reconciliation/lines?bankAccountId=${accountId}&limit=200`, {
      headers: { authorization: `Bearer ${admin}` },
    }).then((r) => r.json() as Promise<{ items: Array<{ lineId: string; bankReference?: string }> }>);
    return lines.items.find((l) => l.bankReference === ref)!.lineId;
  }

  const approvals = async (transactionIds: string[]) => {
    const { rows } = await app.db.query<{ n: string }>(
      `select count(*)::text as n from es_events where type = 'TransactionApproved' and stream_id = any($1::text[])`,
      [transactionIds.map((id) => `txn-${id}`)],
    );
    return Number(rows[0]!.n);
  };
  const request = (lineId: string, transactionId: string) => ({
    lineId,
    transactionId,
    amount: 'requested' as const,
    allowExpired: false,
    actor: { source: 'test' as const },
    mode: 'operator' as const,
  });

  it('one line matched to two deposits by two processes at once approves exactly one', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = [await deposit(250), await deposit(250)];
      const lineId = await importLine(`TWO-${round}`, 25000n);
      const outcomes = await Promise.allSettled([first.match(request(lineId, a)), second.match(request(lineId, b))]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ errorCode: 'line_decided' });
      expect(await approvals([a, b])).toBe(1);
    }
    await app.settle();
    expect(await checkMatchInvariants(app.db)).toEqual([]);
  });

  it('a match and a dismissal of one line at once: either matched and approved, or dismissed and nothing approved', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const a = await deposit(300);
      const lineId = await importLine(`MD-${round}`, 30000n);
      const [matched, dismissed] = await Promise.allSettled([
        first.match(request(lineId, a)),
        second.dismiss(lineId, 'rent, not a deposit', { source: 'test' }),
      ]);
      expect([matched.status, dismissed.status].sort()).toEqual(['fulfilled', 'rejected']);
      expect(await approvals([a])).toBe(matched.status === 'fulfilled' ? 1 : 0);
    }
    await app.settle();
    expect(await checkMatchInvariants(app.db)).toEqual([]);
  });

  it('a match that stopped after its claim goes on when asked again, and approves once', async () => {
    const a = await deposit(350);
    const lineId = await importLine('RESUME', 35000n);
    // The claim of this pair is in place, as a process that died right after claiming leaves it.
    await (
      first as unknown as { claimForMatch(claim: unknown, t: string, actor: unknown): Promise<void> }
    ).claimForMatch(matchClaim({ lineId, bankAccountId: accountId }, a), a, { source: 'test' });
    await expect(second.match(request(lineId, await deposit(350)))).rejects.toMatchObject({
      errorCode: 'line_decided',
    });
    await expect(second.match(request(lineId, a))).resolves.toMatchObject({ state: 'matched' });
    expect(await approvals([a])).toBe(1);
  });
});
