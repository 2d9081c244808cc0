import { randomBytes } from 'node:crypto';
import { KEYS, VALID_IBAN, h2hBody, infraFields } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { ADMIN, CLERK, riskBootstrap } from './risk-fixture.js';

const METRICS_TOKEN = 'metrics-token-for-risk-tests-0123456789';
const OTHER_IBAN = 'TR930006200000000006295317';
const ACTIONS = ['refuse', 'hold', 'flag'] as const;
type Action = (typeof ACTIONS)[number];

/**
 * Risk rules over real HTTP on PostgreSQL: rules configured through the panel API, requests through
 * the gateway's forms (H2H, Merchant, Infrastructure). Each list and limit refuses (risk_refused in
 * the form's error shape, never naming the rule, the hit recorded) or flags (accepted, the hit in the
 * transaction's stream). Every rule is switched off when its test ends, so tests do not see each
 * other's rules.
 */
describe('risk rules through the public API forms on PostgreSQL', () => {
  let app: TestApp;
  let panel: ReturnType<typeof panelClient>;
  let admin: string;
  let merchantId: string;
  const tag = () => randomBytes(4).toString('hex');

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown>, text };
  }

  // The forms.
  const h2hDeposit = (id: string, amount: number, extra: Record<string, unknown> = {}) =>
    call('POST', '/deposit/bank', h2hBody(KEYS.h2h, id, amount, extra));
  const h2hWithdrawal = (id: string, amount: number, extra: Record<string, unknown> = {}) =>
    call('POST', '/withdrawal/bank', h2hBody(KEYS.h2h, id, amount, { iban: VALID_IBAN, ...extra }));
  const merchantDeposit = (id: string, fields: Record<string, unknown>) =>
    call(
      'POST',
      '/deposit',
      { transactionId: id, amount: 150, callback: 'https://merchant.example/cb', ...fields },
      { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret },
    );
  const infraDeposit = (id: string, extra: Record<string, string | number>) =>
    call('POST', '/deposits/deposit-request', infraFields(id, 120, extra));
  const infraWithdrawal = (id: string, extra: Record<string, string | number>) =>
    call('POST', '/withdraws/withdraw-request', infraFields(id, 90, { CustomerFullName: 'Ali Veli', ...extra }));

  /** A rule through the panel; switched off again by `off`. */
  async function rule(check: Record<string, unknown>, action: Action, entries?: string) {
    const name = `rule ${tag()}`;
    const definition = { name, scope: { level: 'merchant', id: merchantId }, check, action };
    const saved = await panel.post('/api/panel/risk/rules/save', definition, admin);
    expect(saved).toMatchObject({ status: 201, body: { success: true, version: 1, changed: true } });
    const ruleId = String(saved.body.ruleId);
    if (entries) {
      const added = await panel.post(`/api/panel/risk/rules/${ruleId}/entries`, { csv: entries }, admin);
      expect(added).toMatchObject({ status: 201, body: { success: true } });
    }
    const off = async () => {
      const saved = await panel.post('/api/panel/risk/rules/save', { ...definition, ruleId, active: false }, admin);
      expect(saved.status).toBe(201);
    };
    switchOff.push(off);
    return { ruleId, name, off };
  }
  /** Every rule a test made is off when it ends, whatever its outcome. */
  const switchOff: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const off of switchOff.splice(0)) await off();
  });

  async function lastRefusal() {
    const events = await app.store.readStream(`risk-refusals-${merchantId}`);
    return events.at(-1)?.data as { externalId: string; action: string; hits: Array<Record<string, unknown>> };
  }

  async function flagsOf(transactionId: string) {
    const events = await app.store.readStream(`txn-${transactionId}`);
    return events.filter((e) => e.type === 'RiskRuleHit').map((e) => e.data as { action: string; hits: unknown[] });
  }

  /** The refusal in the form's shape, never naming the rule, with its hit recorded. */
  async function expectRefused(
    res: { status: number; body: Record<string, unknown>; text: string },
    shape: Record<string, unknown>,
    r: { ruleId: string; name: string },
    externalId: string,
  ) {
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ ...shape, errorCode: 'risk_refused' });
    expect(res.text).not.toContain(r.ruleId);
    expect(res.text).not.toContain(r.name);
    expect(await lastRefusal()).toMatchObject({
      externalId,
      action: 'refuse',
      hits: [{ ruleId: r.ruleId, version: expect.any(Number), action: 'refuse' }],
    });
  }

  /**
   * A held or flagged request is taken (the form's success status), its hit (rule, version, action)
   * follows its request event in its stream, and a hold leaves it `held` (the risk queue).
   */
  async function expectLetIn(
    action: 'hold' | 'flag',
    res: { status: number },
    r: { ruleId: string },
    externalId: string,
  ) {
    expect([200, 201]).toContain(res.status);
    const { rows } = await app.db.query<{ id: string; state: string }>(
      `select transaction_id::text as id, state from rm_transactions where external_id = $1`,
      [externalId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.state === 'held').toBe(action === 'hold');
    expect(await flagsOf(rows[0]!.id)).toEqual([
      expect.objectContaining({ action, hits: [{ ruleId: r.ruleId, version: expect.any(Number), action }] }),
    ]);
  }

  /** Refused, held or flagged as the rule says. */
  async function expectScreened(
    action: Action,
    res: Awaited<ReturnType<typeof call>>,
    refusalShape: Record<string, unknown>,
    r: { ruleId: string; name: string },
    externalId: string,
  ) {
    if (action === 'refuse') await expectRefused(res, refusalShape, r, externalId);
    else await expectLetIn(action, res, r, externalId);
  }

  beforeAll(async () => {
    app = await startTestApp('postgres', { metricsToken: METRICS_TOKEN });
    await app.provision(riskBootstrap());
    panel = panelClient(app);
    admin = (await panel.login(ADMIN.username, ADMIN.password)).accessToken;
    const merchants = await panel.get('/api/panel/merchants', admin);
    merchantId = String(merchants.body.items.find((m: { name: string }) => m.name === 'Risky').id);
  });
  afterAll(async () => {
    await app?.stop();
  });

  describe('blocklists', () => {
    it('a full-name list refuses a Merchant API deposit whatever the Turkish spelling; a flag lets it in, marked', async () => {
      const r = await rule({ kind: 'blocklist', field: 'fullName' }, 'refuse', 'ISIK OZTURK,chargeback');
      const refusedId = `FN-${tag()}`;
      await expectRefused(
        await merchantDeposit(refusedId, { name: 'Işık', surname: 'Öztürk' }),
        { success: false },
        r,
        refusedId,
      );
      expect((await merchantDeposit(`FN-${tag()}`, { name: 'Ayşe', surname: 'Öztürk' })).status).toBe(200);
      await r.off();
      const f = await rule({ kind: 'blocklist', field: 'fullName' }, 'flag', 'ISIK OZTURK,watch');
      const flaggedId = `FN-${tag()}`;
      expect((await merchantDeposit(flaggedId, { name: 'IŞIK', surname: 'ÖZTÜRK' })).status).toBe(200);
      const flagged = await app.db.query<{ id: string }>(
        `select transaction_id::text as id from rm_transactions where external_id = $1`,
        [flaggedId],
      );
      expect(await flagsOf(flagged.rows[0]!.id)).toEqual([
        expect.objectContaining({ action: 'flag', hits: [{ ruleId: f.ruleId, version: 2, action: 'flag' }] }),
      ]);
      await f.off();
    });

    it.each(ACTIONS)('a user-id list (%s) screens H2H deposits by user_id', async (action) => {
      const user = `u-${tag()}`;
      const r = await rule({ kind: 'blocklist', field: 'userId' }, action, `${user},bonus abuse`);
      const id = `UID-${tag()}`;
      const res = await h2hDeposit(id, 250, { user_id: user });
      await expectScreened(action, res, { status: false }, r, id);
      expect((await h2hDeposit(`UID-${tag()}`, 250, { user_id: `${user}-other` })).status).toBe(201);
      await r.off();
    });

    it.each(ACTIONS)('a username list (%s) screens Infrastructure API deposits', async (action) => {
      const username = `Mule${tag()}`;
      const r = await rule({ kind: 'blocklist', field: 'username' }, action, `${username.toUpperCase()},mule`);
      const id = `UN-${tag()}`;
      const res = await infraDeposit(id, { CustomerUsername: username });
      await expectScreened(action, res, { success: false }, r, id);
      await r.off();
    });

    it.each(ACTIONS)('an IBAN list (%s) screens withdrawals by their destination, in both forms', async (action) => {
      const r = await rule(
        { kind: 'blocklist', field: 'iban' },
        action,
        `${OTHER_IBAN.replace(/(.{4})/g, '$1 ')},stolen`,
      );
      const infraId = `IB-${tag()}`;
      const infra = await infraWithdrawal(infraId, { AccountNumber: OTHER_IBAN });
      await expectScreened(action, infra, { Success: false }, r, infraId);
      const h2hId = `IB-${tag()}`;
      const h2h = await h2hWithdrawal(h2hId, 100, { iban: OTHER_IBAN });
      await expectScreened(action, h2h, { status: false }, r, h2hId);
      expect((await h2hWithdrawal(`IB-${tag()}`, 100, { iban: VALID_IBAN })).status).toBe(201);
      await r.off();
    });

    it.each(ACTIONS)('an IP list (%s) screens by the caller address, CIDR included', async (action) => {
      const r = await rule({ kind: 'blocklist', field: 'ip' }, action, '127.0.0.0/8,test network');
      const id = `IP-${tag()}`;
      const res = await h2hDeposit(id, 300);
      await expectScreened(action, res, { status: false }, r, id);
      await r.off();
      expect((await h2hDeposit(`IP-${tag()}`, 300)).status).toBe(201);
    });

    it.each(ACTIONS)('national id, e-mail and phone lists (%s) screen H2H requests that send them', async (action) => {
      const cases: Array<[string, string, Record<string, string>]> = [
        ['tckn', '10000000146', { tckn: '10000000146' }],
        ['email', 'Mule@Example.com', { email: 'mule@example.COM' }],
        ['phone', '0532 123 45 67', { phone: '+90 (532) 123-4567' }],
      ];
      for (const [field, listed, sent] of cases) {
        const r = await rule({ kind: 'blocklist', field }, action, `${listed},fraud`);
        const id = `PII-${tag()}`;
        await expectScreened(action, await h2hDeposit(id, 250, sent), { status: false }, r, id);
        await r.off();
        // Without the field, nothing to compare: taken.
        expect((await h2hDeposit(`PII-${tag()}`, 250)).status).toBe(201);
      }
    });

    it('an expired entry no longer refuses', async () => {
      const user = `u-${tag()}`;
      const r = await rule({ kind: 'blocklist', field: 'userId' }, 'refuse', `${user},old,2020-01-01T00:00:00Z`);
      expect((await h2hDeposit(`EXP-${tag()}`, 250, { user_id: user })).status).toBe(201);
      await r.off();
    });

    it('a repeat of a transaction accepted before the rule still gets its first answer', async () => {
      const user = `u-${tag()}`;
      const id = `REP-${tag()}`;
      const first = await h2hDeposit(id, 250, { user_id: user });
      expect(first.status).toBe(201);
      const r = await rule({ kind: 'blocklist', field: 'userId' }, 'refuse', `${user},late`);
      expect(await h2hDeposit(id, 250, { user_id: user })).toMatchObject({ status: 201, body: first.body });
      await r.off();
    });
  });

  describe('velocity limits (per customer: user id, else normalised name)', () => {
    const expectTaken = (res: { status: number }) => expect([200, 201]).toContain(res.status);

    const screened = (
      action: Action,
      r: { ruleId: string; name: string },
      id: string,
      res: Awaited<ReturnType<typeof call>>,
    ) => expectScreened(action, res, { status: false }, r, id);

    it.each(ACTIONS)('deposits per hour (%s): the third of a limit of two', async (action) => {
      const user = `u-${tag()}`;
      const r = await rule({ kind: 'velocity', limit: 'depositsPerHour', value: '2' }, action);
      expectTaken(await h2hDeposit(`VH-${tag()}`, 100, { user_id: user }));
      expectTaken(await h2hDeposit(`VH-${tag()}`, 100, { user_id: user }));
      const id = `VH-${tag()}`;
      await screened(action, r, id, await h2hDeposit(id, 100, { user_id: user }));
      expectTaken(await h2hDeposit(`VH-${tag()}`, 100, { user_id: `${user}-b` }));
      await r.off();
    });

    it.each(ACTIONS)('deposits per day (%s)', async (action) => {
      const user = `u-${tag()}`;
      const r = await rule({ kind: 'velocity', limit: 'depositsPerDay', value: '1' }, action);
      expectTaken(await h2hDeposit(`VD-${tag()}`, 100, { user_id: user }));
      const id = `VD-${tag()}`;
      await screened(action, r, id, await h2hDeposit(id, 100, { user_id: user }));
      await r.off();
    });

    it.each(ACTIONS)('amount per day (%s): past 300.00 TRY', async (action) => {
      const user = `u-${tag()}`;
      const r = await rule({ kind: 'velocity', limit: 'depositAmountPerDay', value: '30000' }, action);
      expectTaken(await h2hDeposit(`VA-${tag()}`, 200, { user_id: user }));
      expectTaken(await h2hDeposit(`VA-${tag()}`, 100, { user_id: user }));
      const id = `VA-${tag()}`;
      await screened(action, r, id, await h2hDeposit(id, 10, { user_id: user }));
      await r.off();
    });

    it.each(ACTIONS)('first deposit cap (%s): a new customer above 100.00 TRY', async (action) => {
      const user = `u-${tag()}`;
      const r = await rule({ kind: 'velocity', limit: 'firstDeposit', value: '10000' }, action);
      const id = `VF-${tag()}`;
      await screened(action, r, id, await h2hDeposit(id, 150, { user_id: user }));
      expectTaken(await h2hDeposit(`VF-${tag()}`, 100, { user_id: `${user}-b` }));
      // Once deposited, the cap no longer applies.
      expectTaken(await h2hDeposit(`VF-${tag()}`, 150, { user_id: `${user}-b` }));
      await r.off();
    });

    it.each(ACTIONS)('withdrawals per day (%s)', async (action) => {
      const user = `u-${tag()}`;
      const r = await rule({ kind: 'velocity', limit: 'withdrawalsPerDay', value: '1' }, action);
      expectTaken(await h2hWithdrawal(`VW-${tag()}`, 50, { user_id: user }));
      const id = `VW-${tag()}`;
      await screened(action, r, id, await h2hWithdrawal(id, 50, { user_id: user }));
      await r.off();
    });

    it.each(ACTIONS)('a withdrawal within 30 minutes of a deposit (%s)', async (action) => {
      const user = `u-${tag()}`;
      const r = await rule({ kind: 'velocity', limit: 'withdrawalAfterDeposit', value: '30' }, action);
      expectTaken(await h2hWithdrawal(`VX-${tag()}`, 50, { user_id: user }));
      expectTaken(await h2hDeposit(`VX-${tag()}`, 100, { user_id: user }));
      const id = `VX-${tag()}`;
      await screened(action, r, id, await h2hWithdrawal(id, 50, { user_id: user }));
      await r.off();
    });
  });

  describe('the risk queue', () => {
    const h2hStatus = async (externalId: string) =>
      (
        await call(
          'POST',
          `/status/${externalId}`,
          {},
          { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
        )
      ).body;

    it('a held deposit answers held to /status, cannot be approved, and goes on once an operator releases it', async () => {
      const user = `u-${tag()}`;
      await rule({ kind: 'blocklist', field: 'userId' }, 'hold', `${user},review`);
      const id = `HOLD-${tag()}`;
      expect((await h2hDeposit(id, 250, { user_id: user })).status).toBe(201);
      const held = await h2hStatus(id);
      expect(held).toMatchObject({ status: 'held', type: 'deposit' });
      const approve = await panel.post('/api/panel/deposit/approve', { id: held.uuid }, admin);
      expect(approve).toMatchObject({ status: 422, body: { errorCode: 'invalid_state_transition' } });
      // An operator (risk.review) releases it; the release is in its history with who did it.
      const clerk = (await panel.login(CLERK.username, CLERK.password)).accessToken;
      const released = await panel.post('/api/panel/deposit/release', { id: held.uuid }, clerk);
      expect(released).toMatchObject({ status: 201, body: { state: 'awaiting_payment' } });
      expect(await h2hStatus(id)).toMatchObject({ status: 'awaiting_payment' });
      const again = await panel.post('/api/panel/deposit/release', { id: held.uuid }, admin);
      expect(again).toMatchObject({ status: 422, body: { errorCode: 'invalid_state_transition' } });
      const events = await app.store.readStream(`txn-${String(held.uuid)}`);
      expect(events.map((e) => e.type)).toEqual(['DepositRequested', 'RiskRuleHit', 'RiskHoldReleased']);
      expect(events[2]!.metadata).toMatchObject({ source: 'panel' });
      expect((await panel.post('/api/panel/deposit/approve', { id: held.uuid }, admin)).body).toMatchObject({
        state: 'approved',
      });
      // The audit log has the release with the transaction's number and who released it.
      await app.settle();
      const audit = await panel.get('/api/panel/audit?type=RiskHoldReleased', admin);
      expect(audit.body.items).toContainEqual(
        expect.objectContaining({ type: 'RiskHoldReleased', transactionNumber: held.id, username: CLERK.username }),
      );
    });

    it('a held withdrawal cannot be assigned and keeps its reservation until an operator rejects it', async () => {
      const iban = OTHER_IBAN;
      await rule({ kind: 'blocklist', field: 'iban' }, 'hold', `${iban},review`);
      const id = `HOLDW-${tag()}`;
      expect((await h2hWithdrawal(id, 75, { iban })).status).toBe(201);
      const held = await h2hStatus(id);
      expect(held).toMatchObject({ status: 'held', type: 'withdrawal' });
      const assign = await panel.post('/api/panel/withdrawal/assign', { id: held.uuid }, admin);
      expect(assign).toMatchObject({ status: 422, body: { errorCode: 'invalid_state_transition' } });
      const rejected = await panel.post(
        '/api/panel/withdrawal/reject',
        { id: held.uuid, reason: 'mule account' },
        admin,
      );
      expect(rejected).toMatchObject({ status: 201, body: { state: 'rejected' } });
      const events = await app.store.readStream(`merchant-ledger-${merchantId}`);
      const ofThis = events.filter((e) => (e.data as { transactionId?: string }).transactionId === held.uuid);
      expect(ofThis.map((e) => e.type)).toEqual(['TransfersReserved', 'ReservationVoided']);
    });
  });

  describe('the panel API', () => {
    it('lists rules with their versions and sizes, pages entries, removes them; each change a version', async () => {
      const r = await rule({ kind: 'blocklist', field: 'tckn' }, 'refuse', 'value,reason\n10000000146,fraud\n');
      const listed = await panel.get('/api/panel/risk/rules', admin);
      expect(listed.body.items).toContainEqual(
        expect.objectContaining({ ruleId: r.ruleId, version: 2, entryCount: 1 }),
      );
      const entries = await panel.get(`/api/panel/risk/rules/${r.ruleId}/entries?limit=10`, admin);
      expect(entries.body).toEqual({ entries: [{ value: '10000000146', reason: 'fraud' }], total: 1 });
      const removed = await panel.post(
        `/api/panel/risk/rules/${r.ruleId}/entries/remove`,
        { values: ['10000000146'] },
        admin,
      );
      expect(removed.body).toMatchObject({ version: 3, removed: 1 });
      await r.off();
      const events = await app.store.readStream('risk-rules');
      const ofRule = events.filter((e) => (e.data as { ruleId: string }).ruleId === r.ruleId);
      const audit = await panel.get('/api/panel/audit?type=RiskRuleConfigured,BlocklistEntriesAdded', admin);
      expect(audit.body.items.filter((i: { after: { ruleId?: string } }) => i.after.ruleId === r.ruleId)).toHaveLength(
        3,
      );
      expect(ofRule.map((e) => [e.type, (e.data as { version: number }).version, e.metadata.source])).toEqual([
        ['RiskRuleConfigured', 1, 'panel'],
        ['BlocklistEntriesAdded', 2, 'panel'],
        ['BlocklistEntriesRemoved', 3, 'panel'],
        ['RiskRuleConfigured', 4, 'panel'],
      ]);
    });

    it('refuses a TCKN with a wrong checksum, naming its row, and bad rule definitions', async () => {
      const r = await rule({ kind: 'blocklist', field: 'tckn' }, 'refuse');
      const bad = await panel.post(
        `/api/panel/risk/rules/${r.ruleId}/entries`,
        { csv: '10000000146,a\n10000000147,b' },
        admin,
      );
      expect(bad).toMatchObject({
        status: 400,
        body: { errorCode: 'validation_failed', details: { problems: ['entry 2: not a valid tckn'] } },
      });
      const zero = await panel.post(
        '/api/panel/risk/rules/save',
        {
          name: 'x',
          scope: { level: 'global' },
          check: { kind: 'velocity', limit: 'depositsPerHour', value: '0' },
          action: 'refuse',
        },
        admin,
      );
      expect(zero).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
      const unknown = await panel.post(
        '/api/panel/risk/rules/save',
        { name: 'x', scope: { level: 'global' }, check: { kind: 'nope' }, action: 'refuse' },
        admin,
      );
      expect(unknown).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
      await r.off();
    });

    it('needs risk.manage to change rules (an operator may not), and risk.view to read them', async () => {
      const clerk = (await panel.login(CLERK.username, CLERK.password)).accessToken;
      const save = await panel.post(
        '/api/panel/risk/rules/save',
        { name: 'x', scope: { level: 'global' }, check: { kind: 'blocklist', field: 'email' }, action: 'refuse' },
        clerk,
      );
      expect(save).toMatchObject({ status: 403, body: { errorCode: 'permission_denied' } });
      expect((await panel.get('/api/panel/risk/rules', clerk)).status).toBe(403);
    });

    it('counts hits per rule and action in /metrics', async () => {
      const user = `u-${tag()}`;
      const r = await rule({ kind: 'blocklist', field: 'userId' }, 'refuse', `${user},metrics`);
      await h2hDeposit(`M-${tag()}`, 250, { user_id: user });
      await h2hDeposit(`M-${tag()}`, 250, { user_id: user });
      await r.off();
      const metrics = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(await metrics.text()).toContain(`transfergate_risk_hits_total{rule="${r.ruleId}",action="refuse"} 2`);
    });
  });
});
