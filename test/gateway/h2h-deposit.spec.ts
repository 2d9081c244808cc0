import { createHash } from 'node:crypto';
import { ENGINES, issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const H2H_RESPONSE_FIELDS = [
  'account_iban',
  'account_name',
  'code',
  'fast',
  'id',
  'message',
  'status',
  'transaction_id',
];

describe.each(ENGINES)('H2H deposit slice over HTTP on %s', (engine) => {
  let app: TestApp;
  let n = 0;
  const txId = () => `H2H-${engine}-${++n}-${Date.now()}`;
  const body = (transaction_id: string, amount: number | string = 250, extra: Record<string, unknown> = {}) => ({
    apikey: 'ak_test_1',
    transaction_id,
    amount,
    fullname: 'Ayşe Yılmaz',
    hash: sha256(`ak_test_1${transaction_id}sk_test_1${Math.round(Number(amount))}`),
    ...extra,
  });
  const transactionsWritten = async () => {
    await app.settle();
    const { rows } = await app.db.query<{ n: string }>('select count(*)::text n from rm_transactions');
    return Number(rows[0]!.n);
  };

  beforeAll(async () => {
    app = await startTestApp(engine, { bodyLimitBytes: 64 * 1024 });
    await app.provision(issueBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it.each(['/deposit/bank', '/api/deposit/bank'])(
    'POST %s answers 201 with exactly the contract fields',
    async (path) => {
      const id = txId();
      const res = await postJson(`${app.baseUrl}${path}`, body(id));
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(H2H_RESPONSE_FIELDS);
      expect(res.body).toMatchObject({
        status: true,
        code: 200,
        account_name: 'Transfer Ltd',
        account_iban: 'TR330006100519786457841326',
        fast: true,
        id,
        transaction_id: id,
      });
      expect(typeof res.body.message).toBe('string');
    },
  );

  it('POST /status/{identifier} answers by external id, and by internal id or uuid only when asked (by=…)', async () => {
    const id = txId();
    await postJson(`${app.baseUrl}/deposit/bank`, body(id, '1250.50'));
    const headers = { 'x-api-key': 'ak_test_1', 'x-api-secret': 'sk_test_1' };
    const byExternal = await postJson(`${app.baseUrl}/status/${id}`, {}, headers);
    expect(byExternal.status).toBe(201);
    expect(byExternal.body).toMatchObject({
      success: true,
      transactionId: id,
      type: 'deposit',
      status: 'awaiting_payment',
      amount: 1250.5,
    });
    expect(Number.isInteger(byExternal.body.id)).toBe(true);
    // No pause and no settle: the deposit's answer already holds in the read model the number is looked up in.
    const byNumber = await postJson(`${app.baseUrl}/api/status/${byExternal.body.id}?by=id`, {
      ApiKey: 'ak_test_1',
      ApiSecret: 'sk_test_1',
    });
    expect(byNumber.body).toMatchObject({ transactionId: id, uuid: byExternal.body.uuid });
    const basic = { authorization: `Basic ${Buffer.from('ak_test_1:sk_test_1').toString('base64')}` };
    const byUuid = await postJson(`${app.baseUrl}/status/${byExternal.body.uuid}`, { by: 'uuid' }, basic);
    expect(byUuid.body).toMatchObject({ transactionId: id });
    // Without `by`, an internal number or uuid is just an external id nobody sent.
    for (const other of [String(byExternal.body.id), String(byExternal.body.uuid)]) {
      const guessed = await postJson(`${app.baseUrl}/status/${other}`, {}, headers);
      expect(guessed).toMatchObject({ status: 404, body: { success: false, errorCode: 'transaction_not_found' } });
    }
    const badBy = await postJson(`${app.baseUrl}/status/${id}?by=number`, {}, headers);
    expect(badBy).toMatchObject({ status: 400, body: { success: false, errorCode: 'validation_failed' } });
    const notANumber = await postJson(`${app.baseUrl}/status/${id}?by=id`, {}, headers);
    expect(notANumber).toMatchObject({ status: 400, body: { success: false, errorCode: 'validation_failed' } });
    const wrongSecret = await postJson(`${app.baseUrl}/status/${id}`, {}, { ...headers, 'x-api-secret': 'sk_test_2' });
    expect(wrongSecret).toMatchObject({ status: 401, body: { success: false, errorCode: 'invalid_credentials' } });
    const unknown = await postJson(`${app.baseUrl}/status/NOPE-${id}`, {}, headers);
    expect(unknown).toMatchObject({ status: 404, body: { success: false, errorCode: 'transaction_not_found' } });
  });

  it('never answers another transaction for a numeric external id that equals its internal number', async () => {
    const headers = { 'x-api-key': 'ak_test_1', 'x-api-secret': 'sk_test_1' };
    const first = txId();
    await postJson(`${app.baseUrl}/deposit/bank`, body(first));
    const approvedOne = await postJson(`${app.baseUrl}/status/${first}`, {}, headers);
    const number = String(approvedOne.body.id);
    // The merchant's own id "<number>" does not exist yet: not found, never the transaction numbered so.
    const before = await postJson(`${app.baseUrl}/status/${number}`, {}, headers);
    expect(before).toMatchObject({ status: 404, body: { errorCode: 'transaction_not_found' } });
    // Once it exists, the numeric id is the merchant's own transaction; by=id still reaches the other one.
    const created = await postJson(`${app.baseUrl}/deposit/bank`, body(number, 80));
    expect(created.status).toBe(201);
    const mine = await postJson(`${app.baseUrl}/status/${number}`, {}, headers);
    expect(mine.body).toMatchObject({ transactionId: number, amount: 80 });
    expect(mine.body.uuid).not.toBe(approvedOne.body.uuid);
    const theirs = await postJson(`${app.baseUrl}/status/${number}?by=id`, {}, headers);
    expect(theirs.body).toMatchObject({ transactionId: first, uuid: approvedOne.body.uuid });
  });

  it('accepts the hash in upper-case hex and refuses a wrong one', async () => {
    const id = txId();
    const upper = body(id);
    upper.hash = upper.hash.toUpperCase();
    expect((await postJson(`${app.baseUrl}/deposit/bank`, upper)).status).toBe(201);
    const wrong = await postJson(`${app.baseUrl}/deposit/bank`, { ...body(txId()), hash: sha256('something else') });
    expect(wrong).toMatchObject({ status: 401, body: { status: false, code: 401, errorCode: 'invalid_signature' } });
    const unknownKey = await postJson(`${app.baseUrl}/deposit/bank`, { ...body(txId()), apikey: 'ak_nobody' });
    // An unknown key is answered like a wrong hash: the answer does not tell whether a key exists.
    expect(unknownKey).toMatchObject({ status: 401, body: { status: false, errorCode: 'invalid_signature' } });
  });

  it('callback_url must equal the registered URL exactly', async () => {
    const ok = await postJson(
      `${app.baseUrl}/deposit/bank`,
      body(txId(), 250, { callback_url: 'http://127.0.0.1:9999/cb/dep' }),
    );
    expect(ok.status).toBe(201);
    const other = await postJson(
      `${app.baseUrl}/deposit/bank`,
      body(txId(), 250, { callback_url: 'http://127.0.0.1:9999/cb/dep/' }),
    );
    expect(other).toMatchObject({ status: 400, body: { status: false, errorCode: 'callback_url_mismatch' } });
  });

  it('50 concurrent identical requests: one transaction, 50 identical answers', async () => {
    const id = txId();
    const before = await transactionsWritten();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postJson(`${app.baseUrl}/deposit/bank`, body(id))),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect((await transactionsWritten()) - before).toBe(1);
  });

  it("gives a deposit's event a time-ordered id (UUID v7): the store's event_id index grows at its right edge", async () => {
    const ids = [txId(), txId(), txId()];
    for (const id of ids) expect((await postJson(`${app.baseUrl}/deposit/bank`, body(id))).status).toBe(201);
    const { rows } = await app.db.query<{ event_id: string }>(
      `select e.event_id::text from es_events e join rm_transactions t on e.stream_id = 'txn-' || t.transaction_id
        where t.external_id = any($1::text[]) and e.type = 'DepositRequested' order by e.seq`,
      [ids],
    );
    expect(rows).toHaveLength(3);
    for (const { event_id } of rows) expect(event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(rows.map((r) => r.event_id)).toEqual(rows.map((r) => r.event_id).sort());
  });

  it('50 concurrent different-payload repeats: one transaction, the rest 409', async () => {
    const id = txId();
    const before = await transactionsWritten();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postJson(`${app.baseUrl}/deposit/bank`, body(id, 100 + i))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(conflicts).toHaveLength(49);
    for (const c of conflicts)
      expect(c.body).toMatchObject({ status: false, code: 409, errorCode: 'duplicate_transaction' });
    expect((await transactionsWritten()) - before).toBe(1);
  });

  it('bad input never gives a 500 and never writes a transaction', async () => {
    const before = await transactionsWritten();
    const url = `${app.baseUrl}/deposit/bank`;
    const cases: Array<[unknown, number, string]> = [
      ['{not json', 400, 'malformed_json'],
      ['[]', 400, 'validation_failed'],
      ['"text"', 400, 'validation_failed'],
      [{}, 400, 'validation_failed'],
      [{ ...body(txId()), amount: 0 }, 400, 'invalid_amount'],
      [{ ...body(txId()), amount: -5 }, 400, 'invalid_amount'],
      [{ ...body(txId()), amount: '250.123' }, 400, 'invalid_amount'],
      [{ ...body(txId()), amount: 'NaN' }, 400, 'invalid_amount'],
      [{ ...body(txId()), amount: true }, 400, 'invalid_amount'],
      [body(txId(), 5), 422, 'amount_out_of_range'],
      [{ ...body(txId()), transaction_id: 12345 }, 400, 'validation_failed'],
      [{ ...body(txId()), fullname: '' }, 400, 'validation_failed'],
      [{ ...body(txId()), hash: undefined }, 400, 'validation_failed'],
      [{ ...body(txId()), fullname: "Robert'); DROP TABLE es_events;--", hash: 'x' }, 401, 'invalid_signature'],
      [{ ...body(txId()), fullname: '<script>alert(1)</script>', hash: 'x' }, 401, 'invalid_signature'],
      [{ ...body(txId()), fullname: 'x'.repeat(70 * 1024) }, 413, 'payload_too_large'],
    ];
    for (const [payload, status, errorCode] of cases) {
      const res = await postJson(url, payload);
      expect({
        payload: String(JSON.stringify(payload)).slice(0, 60),
        status: res.status,
        errorCode: res.body.errorCode,
      }).toEqual({
        payload: String(JSON.stringify(payload)).slice(0, 60),
        status,
        errorCode,
      });
      expect(res.body).toMatchObject({ status: false, code: status });
    }
    // Unicode and right-to-left names are valid input and are stored as given.
    const rtl = await postJson(url, { ...body(txId()), fullname: 'مريم العربية ‏Çağrı Öztürk 🚀' });
    expect(rtl.status).toBe(201);
    expect((await transactionsWritten()) - before).toBe(1);
  });

  it('GET / and GET /api answer health', async () => {
    for (const path of ['/', '/api']) {
      const res = await fetch(`${app.baseUrl}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok', service: 'transfergate' });
    }
  });
});
