import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { parseBootstrap } from '@transfergate/all-in-one';
import { runStatementCommand } from '../../apps/all-in-one/src/cli/statement/statement.command.js';
import {
  ConfigureOperatorCommand,
  MerchantStatementSchema,
  STATEMENT_CSV_COLUMNS,
  kurusToDecimalString,
  type MerchantStatement,
} from '@transfergate/contracts';
import { h2hBody, VALID_IBAN } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { TEST_DATABASE_URL } from '../support/postgres.js';
import { ENGINES, ISSUE_BOOTSTRAP, postJson, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Merchant statements over real HTTP on both engines: a mixed workload (approved deposits with
 * commission, an approved withdrawal with a fee, a rejected one, an amount change), then the
 * statement's arithmetic, its agreement with the balance the panel shows, CSV parsed back with an
 * independent parser, a past range unchanged by later activity, bad input, and the CLI's output
 * equal to the API's (read from the event store alone), in process and through the built
 * `apps/all-in-one/dist/main.js` (npm test builds first, like test/runtime).
 */
const MAIN = resolve('apps/all-in-one/dist/main.js');
const execFileAsync = promisify(execFile);
const KEY = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const big = (kurus: string) => BigInt(kurus);
const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

describe.each(ENGINES)('merchant statements (%s)', (engine) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tg-statement-'));
  let app: TestApp;
  let closed = false;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let clerk: string;
  let merchantId: string;
  let t0: string;
  let t1: string;
  let first: MerchantStatement;
  let firstCsv: string;
  let n = 0;
  const ext = (prefix: string) => `${prefix}-${engine}-${++n}`;

  async function uuidOf(externalId: string): Promise<string> {
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': KEY.apiKey, 'x-api-secret': KEY.apiSecret },
    );
    expect(status.status).toBe(201);
    return String(status.body.uuid);
  }
  async function deposit(amount: number): Promise<string> {
    const id = ext('SD');
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEY, id, amount))).status).toBe(201);
    return uuidOf(id);
  }
  async function withdrawal(amount: number): Promise<string> {
    const id = ext('SW');
    const res = await postJson(`${app.baseUrl}/withdrawal/bank`, h2hBody(KEY, id, amount, { iban: VALID_IBAN }));
    expect(res.status).toBe(201);
    return uuidOf(id);
  }
  async function act(path: string, body: Record<string, unknown>) {
    const res = await client.post(`/panel/${path}`, body, admin);
    expect(res.status).toBe(201);
  }
  const statementPath = (from: string, to: string, id = merchantId, base = 'merchants') =>
    `/panel/${base}/${id}/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  async function statement(from: string, to: string): Promise<MerchantStatement> {
    const res = await client.get(statementPath(from, to), admin);
    expect(res.status).toBe(200);
    return MerchantStatementSchema.parse(res.body);
  }
  async function csvOf(path: string) {
    const res = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${admin}` } });
    return { status: res.status, headers: res.headers, body: await res.text() };
  }
  /** A moment strictly after everything appended so far, and strictly before anything appended next. */
  async function moment(): Promise<string> {
    await app.settle();
    await sleep(5);
    const at = new Date().toISOString();
    await sleep(5);
    return at;
  }

  beforeAll(async () => {
    app = await startTestApp(engine, { dataDir });
    const bootstrap = structuredClone(ISSUE_BOOTSTRAP);
    bootstrap.merchants[0]!.withdrawalCommissionPercent = 1;
    await app.provision(parseBootstrap(bootstrap, 'test'));
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'clerk', password: 'Initial-pass-1', role: 'operator', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    clerk = (await client.login('clerk', 'Initial-pass-1')).accessToken;
    const merchants = await client.get('/panel/merchants', admin);
    merchantId = merchants.body.items.find((m: { name: string }) => m.name === 'Acme').id;

    // Before t0: one approved deposit, so the statement opens with a balance.
    await act('deposit/approve', { id: await deposit(400) });
    t0 = await moment();
    await act('deposit/approve', { id: await deposit(1000) }); // commission 15.00
    await act('deposit/approve', { id: await deposit(250.5) }); // commission 3.7575 → 3.76
    await deposit(77); // never approved: no ledger entry
    const approved = await withdrawal(300); // fee 3.00
    await act('withdrawal/approve', { id: approved });
    const rejected = await withdrawal(100); // fee 1.00
    await act('withdrawal/reject', { id: rejected, reason: 'customer cancelled' });
    const changed = await withdrawal(200); // fee 2.00, then 150 with fee 1.50
    await act('withdrawal/update-amount', { id: changed, amount: 150 });
    await act('withdrawal/approve', { id: changed });
    await withdrawal(50); // still pending at t1: a hold
    t1 = await moment();
    first = await statement(t0, t1);
    firstCsv = (await csvOf(`${statementPath(t0, t1)}&format=csv`)).body;
  }, 180_000); // a whole workload over HTTP: generous on a loaded 2-core machine
  afterAll(async () => {
    if (closed) rmSync(dataDir, { recursive: true, force: true });
    else await app?.stop();
  });

  it('opens with the earlier balance and lists each hold, posting and release in ledger order', () => {
    // 400 less 1.5 % commission (6.00) before t0.
    expect(first.opening).toEqual({ bookedKurus: '39400', heldKurus: '0', availableKurus: '39400' });
    const rows = first.entries.map((e) => [e.type, e.phase, e.debitKurus, e.creditKurus, e.commissionKurus]);
    expect(rows).toEqual([
      ['deposit', 'posted', '0', '98500', '1500'],
      ['deposit', 'posted', '0', '24674', '376'],
      ['withdrawal', 'pending', '30000', '0', '0'],
      ['fee', 'pending', '300', '0', '0'],
      ['withdrawal', 'posted', '30000', '0', '0'],
      ['fee', 'posted', '300', '0', '0'],
      ['withdrawal', 'pending', '10000', '0', '0'],
      ['fee', 'pending', '100', '0', '0'],
      ['withdrawal', 'voided', '10000', '0', '0'],
      ['fee', 'voided', '100', '0', '0'],
      ['withdrawal', 'pending', '20000', '0', '0'],
      ['fee', 'pending', '200', '0', '0'],
      ['withdrawal', 'voided', '20000', '0', '0'],
      ['fee', 'voided', '200', '0', '0'],
      ['withdrawal', 'pending', '15000', '0', '0'],
      ['fee', 'pending', '150', '0', '0'],
      ['withdrawal', 'posted', '15000', '0', '0'],
      ['fee', 'posted', '150', '0', '0'],
      ['withdrawal', 'pending', '5000', '0', '0'],
      ['fee', 'pending', '50', '0', '0'],
    ]);
    for (const e of first.entries) {
      expect(e.transactionNumber).toBeGreaterThan(0);
      expect(e.externalId).toMatch(new RegExp(`^S[DW]-${engine}-\\d+$`));
      expect(e.transactionType).toBe(e.type === 'deposit' ? 'deposit' : 'withdrawal');
      expect(e.at >= first.from && e.at < first.to).toBe(true);
    }
    const versions = first.entries.map((e) => e.ledgerVersion);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(first.openingLedgerVersion).toBe(1);
    expect(first.closingLedgerVersion).toBe(first.entries.at(-1)!.ledgerVersion);
  });

  it('opening + postings = closing, for the booked and the available balance, line by line', () => {
    const posted = first.entries.filter((e) => e.phase === 'posted');
    expect(big(first.closing.bookedKurus)).toBe(
      big(first.opening.bookedKurus) + sum(posted.map((e) => big(e.creditKurus) - big(e.debitKurus))),
    );
    const held = sum(first.entries.filter((e) => e.phase === 'pending').map((e) => big(e.debitKurus)));
    const released = sum(
      first.entries.filter((e) => e.phase !== 'pending' && e.type !== 'deposit').map((e) => big(e.debitKurus)),
    );
    expect(big(first.closing.heldKurus)).toBe(big(first.opening.heldKurus) + held - released);
    expect(first.closing).toEqual({ bookedKurus: '117124', heldKurus: '5050', availableKurus: '112074' });
    expect(first.totals).toEqual({
      postedDebitsKurus: '45450',
      postedCreditsKurus: '123174',
      heldKurus: String(held),
      releasedKurus: '30300',
      commissionKurus: '1876',
    });
    // Running balances: each line's balance is the one before it plus its own effect.
    let booked = big(first.opening.bookedKurus);
    let available = big(first.opening.availableKurus);
    for (const e of first.entries) {
      const debit = big(e.debitKurus);
      if (e.phase === 'posted') booked += big(e.creditKurus) - debit;
      if (e.phase === 'pending') available -= debit;
      else if (e.phase === 'voided') available += debit;
      else if (e.type === 'deposit') available += big(e.creditKurus);
      expect([e.bookedBalanceKurus, e.availableBalanceKurus]).toEqual([String(booked), String(available)]);
    }
    expect([String(booked), String(available)]).toEqual([first.closing.bookedKurus, first.closing.availableKurus]);
  });

  it("the closing balance is the balance the panel's merchant record shows", async () => {
    const record = await client.get(`/panel/merchants/${merchantId}`, admin);
    expect(record.status).toBe(200);
    expect(record.body.balance).toBe(Number(first.closing.bookedKurus) / 100);
    expect(record.body.available).toBe(Number(first.closing.availableKurus) / 100);
  });

  it('answers the same under /panel/dealers and /api', async () => {
    for (const path of [
      statementPath(t0, t1, merchantId, 'dealers'),
      `/api${statementPath(t0, t1)}`,
      `/api${statementPath(t0, t1, merchantId, 'dealers')}`,
    ]) {
      const res = await client.get(path, admin);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.body).toEqual(first);
    }
  });

  it('CSV: an attachment that parses back to the same figures', async () => {
    const asked = await csvOf(`${statementPath(t0, t1)}&format=csv`);
    expect(asked.status).toBe(200);
    expect(asked.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(asked.headers.get('content-disposition')).toMatch(
      /^attachment; filename="statement-Acme-\d{4}-\d\d-\d\dT\d{6}Z-\d{4}-\d\d-\d\dT\d{6}Z\.csv"$/,
    );
    const byPath = await csvOf(statementPath(t0, t1).replace('/statement?', '/statement.csv?'));
    expect(byPath.status).toBe(200);
    expect(byPath.body).toBe(asked.body);
    expect(asked.body.endsWith('\r\n')).toBe(true);

    const rows = parseCsv(asked.body, { delimiter: ';', columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([...STATEMENT_CSV_COLUMNS]);
    expect(rows.map((r) => r.row)).toEqual(['opening', ...first.entries.map(() => 'entry'), 'closing']);
    const tr = (kurus: string) => kurusToDecimalString(big(kurus));
    expect(rows[0]).toMatchObject({ at: first.from, booked_balance_try: '394.00', available_balance_try: '394.00' });
    expect(rows.at(-1)).toMatchObject({
      at: first.to,
      booked_balance_try: tr(first.closing.bookedKurus),
      held_try: tr(first.closing.heldKurus),
      available_balance_try: tr(first.closing.availableKurus),
    });
    first.entries.forEach((e, i) => {
      expect(rows[i + 1]).toEqual({
        row: 'entry',
        at: e.at,
        ledger_version: String(e.ledgerVersion),
        transaction_number: String(e.transactionNumber),
        transaction_id: e.transactionId,
        external_id: e.externalId,
        transaction_type: e.transactionType,
        entry_type: e.type,
        phase: e.phase,
        debit_try: tr(e.debitKurus),
        credit_try: tr(e.creditKurus),
        commission_try: tr(e.commissionKurus),
        booked_balance_try: tr(e.bookedBalanceKurus),
        held_try: tr(String(big(e.bookedBalanceKurus) - big(e.availableBalanceKurus))),
        available_balance_try: tr(e.availableBalanceKurus),
        transfer_id: e.transferId,
      });
    });
    // Every amount is a two-decimal string; the money columns add up like the JSON does.
    const money = rows.flatMap((r) => [r.debit_try, r.credit_try, r.booked_balance_try]).filter((v) => v !== '');
    for (const value of money) expect(value).toMatch(/^-?\d+\.\d\d$/);
    const kurus = (v: string) => BigInt(v.replace('.', ''));
    const entries = rows.slice(1, -1).filter((r) => r.phase === 'posted');
    expect(
      kurus(rows[0]!.booked_balance_try!) + sum(entries.map((r) => kurus(r.credit_try!) - kurus(r.debit_try!))),
    ).toBe(kurus(rows.at(-1)!.booked_balance_try!));
  });

  it('a past range is unchanged by later activity; the next range opens where it closed', async () => {
    const later = await deposit(123);
    await act('deposit/approve', { id: later });
    const pendingAfter = await withdrawal(60);
    await act('withdrawal/reject', { id: pendingAfter, reason: 'later' });
    const t2 = await moment();
    expect(await statement(t0, t1)).toEqual(first);
    expect((await csvOf(`${statementPath(t0, t1)}&format=csv`)).body).toBe(firstCsv);

    const next = await statement(t1, t2);
    expect(next.opening).toEqual(first.closing);
    expect(next.openingLedgerVersion).toBe(first.closingLedgerVersion);
    expect(next.entries.map((e) => `${e.type}/${e.phase}`)).toEqual([
      'deposit/posted',
      'withdrawal/pending',
      'fee/pending',
      'withdrawal/voided',
      'fee/voided',
    ]);
    const whole = await statement(t0, t2);
    expect(whole.entries).toEqual([...first.entries, ...next.entries]);
    expect(whole.closing).toEqual(next.closing);
    const record = await client.get(`/panel/merchants/${merchantId}`, admin);
    expect(record.body.balance).toBe(Number(next.closing.bookedKurus) / 100);
  });

  it('refuses bad input in the panel error shape', async () => {
    const now = new Date().toISOString();
    const cases: Array<[string, number, string]> = [
      [statementPath(t1, t0), 400, 'validation_failed'],
      [statementPath(t0, t0), 400, 'validation_failed'],
      [statementPath('yesterday', t1), 400, 'validation_failed'],
      [statementPath(t0, '2026-13-45'), 400, 'validation_failed'],
      [statementPath('2024-01-01', '2025-01-02'), 400, 'validation_failed'],
      [`/panel/merchants/${merchantId}/statement?to=${encodeURIComponent(now)}`, 400, 'validation_failed'],
      [`${statementPath(t0, t1)}&format=xlsx`, 400, 'validation_failed'],
      [statementPath(t0, t1, '00000000-0000-4000-8000-000000000000'), 404, 'not_found'],
      [statementPath(t0, t1, 'not-a-merchant'), 404, 'not_found'],
    ];
    for (const [path, status, errorCode] of cases) {
      const res = await client.get(path, admin);
      expect([path, res.status, res.body.errorCode]).toEqual([path, status, errorCode]);
      expect(typeof res.body.message).toBe('string');
    }
    // A full leap year is allowed (366 days), one day more is not.
    expect((await client.get(statementPath('2024-01-01', '2025-01-01'), admin)).status).toBe(200);
  });

  it('needs statements.view: no token is 401, an operator without it 403', async () => {
    expect((await client.get(statementPath(t0, t1))).status).toBe(401);
    const res = await client.get(statementPath(t0, t1), clerk);
    expect([res.status, res.body.errorCode]).toEqual([403, 'permission_denied']);
  });

  it('the CLI prints the same statement from the event store alone (JSON and CSV), by id or by name', async () => {
    const env: NodeJS.ProcessEnv = {};
    if (engine === 'postgres') {
      const { rows } = await app.db.query<{ schema: string }>('select current_schema() as schema');
      Object.assign(env, { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: rows[0]!.schema });
    } else {
      // PGlite serves one process: the server stops before the CLI opens its files.
      await app.close();
      closed = true;
      env.DATA_DIR = dataDir;
    }
    const run = async (...args: string[]) => {
      let out = '';
      let err = '';
      const code = await runStatementCommand(args, env, { out: (t) => (out += t), err: (t) => (err += t) });
      return { code, out, err };
    };
    const json = await run('--merchant', merchantId, '--from', t0, '--to', t1, '--json');
    expect([json.code, json.err]).toEqual([0, '']);
    expect(JSON.parse(json.out)).toEqual(first);
    const csv = await run('--merchant', 'Acme', '--from', t0, '--to', t1, '--csv');
    expect([csv.code, csv.err]).toEqual([0, '']);
    expect(csv.out).toBe(firstCsv);
    const text = await run('--merchant', 'Acme', '--from', t0, '--to', t1);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`closing: booked 1171.24 TRY, held 50.50 TRY, available 1120.74 TRY`);

    // The real entry point (`transfergate statement`, dist/main.js as npm builds it) prints the same.
    const { stdout } = await execFileAsync(
      process.execPath,
      [MAIN, 'statement', '--merchant', 'Acme', '--from', t0, '--to', t1, '--json'],
      { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 },
    );
    expect(JSON.parse(stdout)).toEqual(first);

    const nobody = await run('--merchant', 'Nobody', '--from', t0, '--to', t1);
    expect(nobody.code).toBe(2);
    // Named as typed, not as the id a name is turned into.
    expect(nobody.err).toBe('no merchant with id or name "Nobody"\n');
    expect((await run('--merchant', 'Acme', '--from', t1, '--to', t0)).code).toBe(2);
    expect((await run('--merchant', 'Acme')).code).toBe(2);
  });
});
