import { ENGINES, issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, conformanceBootstrap } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';

/**
 * Read-your-writes: whatever a write answers (a payment URL, an integer id, a new state) is usable
 * by the very next request, with no pause: the payment page, /status by integer id, the panel's
 * detail and its actions by number. 200 rounds in a row on each engine; one miss fails the test.
 */
const ROUNDS = 200;
const merchantHeaders = { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret };

describe.each(ENGINES)('read-your-writes on %s', (engine) => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp(engine);
    await app.provision(issueBootstrap());
    await app.provision(conformanceBootstrap());
    token = (await panelClient(app).login('admin', 'S3cure-pass!')).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it(`create, then fetch at once: ${ROUNDS} rounds without a single miss`, async () => {
    const panel = panelClient(app);
    const misses: string[] = [];
    const stamp = Date.now();
    for (let round = 0; round < ROUNDS; round++) {
      const externalId = `RYW-${engine}-${stamp}-${round}`;
      const created = await postJson(
        `${app.baseUrl}/deposit`,
        { transactionId: externalId, amount: 50 + round, username: 'zeynep' },
        merchantHeaders,
      );
      expect(created.status).toBe(200);
      const data = created.body.data as { paymentUrl: string; id: number };

      const page = await fetch(data.paymentUrl);
      await page.arrayBuffer();
      if (page.status !== 200) misses.push(`${round}: payment page ${page.status}`);

      const byNumber = await postJson(`${app.baseUrl}/status/${data.id}?by=id`, {}, merchantHeaders);
      if (byNumber.status !== 201 || byNumber.body.transactionId !== externalId)
        misses.push(`${round}: /status by id ${byNumber.status}`);

      const detail = await panel.get(`/panel/transactions/${data.id}`, token);
      if (detail.status !== 200) misses.push(`${round}: panel detail ${detail.status}`);

      // Every fourth deposit is approved by number at once, and every view says so at once.
      if (round % 4 === 0) {
        const approved = await panel.post('/panel/deposit/approve', { id: String(data.id) }, token);
        if (approved.status !== 201) misses.push(`${round}: approve by number ${approved.status}`);
        const status = await postJson(`${app.baseUrl}/status/${externalId}`, {}, merchantHeaders);
        if (status.body.status !== 'approved') misses.push(`${round}: /status after approve ${status.body.status}`);
        const list = await panel.get(`/panel/transactions?q=${encodeURIComponent(externalId)}`, token);
        const row = (list.body.items as Array<{ externalId: string; state: string }> | undefined)?.find(
          (item) => item.externalId === externalId,
        );
        if (row?.state !== 'approved') misses.push(`${round}: panel list after approve ${row?.state}`);
        const pageStatus = await fetch(`${data.paymentUrl}/status`);
        const pageBody = (await pageStatus.json()) as { state?: string; status?: string };
        if ((pageBody.state ?? pageBody.status) !== 'approved')
          misses.push(`${round}: payment page status after approve ${JSON.stringify(pageBody)}`);
      }
    }
    expect(misses).toEqual([]);
  });
});
