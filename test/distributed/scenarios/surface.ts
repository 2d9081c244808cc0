import { http } from '../cluster.js';
import { KEY, sha256, sleep, type DistributedFixture } from '../distributed-fixture.js';

/** Every process answers health, metrics and errors as the embedded app does, and applies saved API settings. */
export function registerSurface(fixture: () => DistributedFixture): void {
  it('answers liveness and readiness on every process, and the same error bodies as the embedded mode', async () => {
    const { cluster, gateway, panel, token } = fixture();
    for (const p of cluster.processes) {
      expect((await http('GET', p.url('/livez'))).status).toBe(200);
      const ready = await http('GET', p.url('/readyz'));
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toEqual({
        database: { ok: true },
        transport: { ok: true },
        notices: { ok: true },
        consumers: { ok: true },
      });
      // The process's own metrics (libs/observability), as in the embedded app.
      const metrics = await fetch(p.url('/metrics'));
      expect([p.service, metrics.status]).toEqual([p.service, 200]);
      expect(await metrics.text()).toContain('transfergate_http_request_duration_seconds');
    }
    // A DomainError raised in the ledger process arrives with its code and status: H2H shape.
    const wrong = await http('POST', gateway.url('/deposit/bank'), {
      apikey: KEY.apiKey,
      transaction_id: 'X-1',
      amount: 5_000_000,
      fullname: 'A B',
      hash: sha256(`${KEY.apiKey}X-1${KEY.apiSecret}5000000`),
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({
      status: false,
      code: 422,
      message: expect.any(String),
      errorCode: 'amount_out_of_range',
      ...(wrong.body.details ? { details: wrong.body.details } : {}),
    });
    // And in the panel process (which has no gateway module): camel shape, code intact.
    const missing = await http(
      'POST',
      panel.url('/panel/deposit/approve'),
      { id: '999999' },
      { authorization: `Bearer ${token}` },
    );
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, errorCode: expect.stringMatching(/not_found/) });
  });

  it("applies an operator's saved API settings in the separate gateway process", async () => {
    const { gateway, panel, token } = fixture();
    const testAuth = () =>
      http('SEARCH', gateway.url('/test-auth'), undefined, {
        'x-api-key': KEY.apiKey,
        'x-api-secret': KEY.apiSecret,
      });
    expect((await testAuth()).status).toBe(404);
    const saved = await http(
      'POST',
      panel.url('/panel/settings/api'),
      { testAuthEnabled: true },
      { authorization: `Bearer ${token}` },
    );
    expect(saved.status).toBeLessThan(300);
    const deadline = Date.now() + 15_000;
    let answer = await testAuth();
    while (answer.status !== 200 && Date.now() < deadline) {
      await sleep(250);
      answer = await testAuth();
    }
    expect(answer).toEqual({ status: 200, body: expect.objectContaining({ success: true }) });
  }, 60_000);
}
