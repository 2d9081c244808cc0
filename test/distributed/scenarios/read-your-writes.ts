import { http } from '../cluster.js';
import { MERCHANT_KEY, type DistributedFixture } from '../distributed-fixture.js';

const READ_YOUR_WRITES_ROUNDS = 200;

/** What one process answered is already true in every other process. */
export function registerReadYourWrites(fixture: () => DistributedFixture): void {
  it(`answers only what is already true in every other process: ${READ_YOUR_WRITES_ROUNDS} create-then-fetch rounds`, async () => {
    const { gateway, panel, token } = fixture();
    const merchantHeaders = { 'x-api-key': MERCHANT_KEY.apiKey, 'x-api-secret': MERCHANT_KEY.apiSecret };
    const auth = { authorization: `Bearer ${token}` };
    const misses: string[] = [];
    for (let round = 0; round < READ_YOUR_WRITES_ROUNDS; round++) {
      const externalId = `RYW-${round}`;
      // Created through the gateway process, decided by one of two ledger processes (one holds the
      // projection's lease), then read at once through the gateway and the panel process.
      const created = await http(
        'POST',
        gateway.url('/deposit'),
        { transactionId: externalId, amount: 40 + round, username: 'zeynep' },
        merchantHeaders,
      );
      expect([round, created.status, created.status === 200 ? null : created.body]).toEqual([round, 200, null]);
      const data = created.body.data as { paymentUrl: string; id: number };
      const page = await fetch(data.paymentUrl);
      await page.arrayBuffer();
      if (page.status !== 200) misses.push(`${round}: payment page ${page.status}`);
      const detail = await http('GET', panel.url(`/panel/transactions/${data.id}`), undefined, auth);
      if (detail.status !== 200) misses.push(`${round}: panel detail ${detail.status}`);
      if (round % 4 === 0) {
        const approved = await http('POST', panel.url('/panel/deposit/approve'), { id: String(data.id) }, auth);
        if (approved.status !== 201) misses.push(`${round}: approve by number ${approved.status}`);
        const status = await http('POST', gateway.url(`/status/${data.id}?by=id`), undefined, merchantHeaders);
        if (status.body.status !== 'approved') misses.push(`${round}: /status after approve ${status.body.status}`);
      }
    }
    expect(misses).toEqual([]);
  }, 180_000);
}
