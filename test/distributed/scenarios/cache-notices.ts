import { http, type ServiceProcess } from '../cluster.js';
import { ROTATED_KEY, sleep, type DistributedFixture } from '../distributed-fixture.js';

/**
 * How soon after the panel's answer the separate gateway must refuse the old record: far under its
 * cache's 5 s TTL, which is what a gateway without the broadcast notice would take.
 */
const STALE_AFTER_ANSWER_LIMIT_MS = 1_000;

/** A record changed in the panel reaches every other process cache through the broadcast notice. */
export function registerCacheNotices(fixture: () => DistributedFixture): void {
  it('every gateway process refuses a rotated secret and a disabled provider right after the panel answers', async () => {
    const { transport, cluster, gateway, panel, token } = fixture();
    const auth = { authorization: `Bearer ${token}` };
    // Two gateways: a notice handed to one process of a group (as commands are) would miss one.
    const gateways = [gateway, await cluster.start('gateway-api')];
    // Past authentication, an unknown transaction is a 404: the record was read and is now cached.
    const status = (at: ServiceProcess, apiSecret: string) =>
      http('POST', at.url('/status/NO-SUCH-TX'), undefined, {
        'x-api-key': ROTATED_KEY.apiKey,
        'x-api-secret': apiSecret,
      });
    const primed = async (apiSecret: string) => {
      for (const at of gateways) expect((await status(at, apiSecret)).status).toBe(404);
    };
    /** Calls every gateway until it answers `refused` (or the limit): what came first, what last, and when. */
    const untilRefused = (apiSecret: string, refused: number, answeredAtMs: number) =>
      Promise.all(
        gateways.map(async (at) => {
          const first = await status(at, apiSecret);
          let last = first;
          while (last.status !== refused && Date.now() - answeredAtMs < STALE_AFTER_ANSWER_LIMIT_MS) {
            await sleep(10);
            last = await status(at, apiSecret);
          }
          return { first: first.status, last: last.status, afterMs: Date.now() - answeredAtMs };
        }),
      );
    const listed = await http('GET', panel.url('/panel/providers'), undefined, auth);
    const provider = (listed.body.items as Array<{ id: string; apiKey: string; name: string }>).find(
      (p) => p.apiKey === ROTATED_KEY.apiKey,
    )!;

    await primed(ROTATED_KEY.apiSecret);
    // A hard cut (no overlap window): the old secret is refused once the notice arrives.
    const rotated = await http(
      'POST',
      panel.url('/panel/providers/rotate-secret'),
      { id: provider.id, overlapSeconds: 0 },
      auth,
    );
    const rotatedAtMs = Date.now();
    expect(rotated.status).toBe(201);
    const oldSecret = await untilRefused(ROTATED_KEY.apiSecret, 401, rotatedAtMs);
    console.log(`${transport.name}: the old secret after rotation, per gateway: ${JSON.stringify(oldSecret)}`);
    // The notice is sent before the answer but heard asynchronously: the bound, not the first call.
    for (const answer of oldSecret) {
      expect(answer.last).toBe(401);
      expect(answer.afterMs).toBeLessThan(STALE_AFTER_ANSWER_LIMIT_MS);
    }

    await primed(String(rotated.body.apiSecret));
    const disabled = await http(
      'POST',
      panel.url('/panel/providers/save'),
      { id: provider.id, name: provider.name, active: false },
      auth,
    );
    const disabledAtMs = Date.now();
    expect(disabled.status).toBe(201);
    const afterDisable = await untilRefused(String(rotated.body.apiSecret), 403, disabledAtMs);
    console.log(`${transport.name}: the disabled provider, per gateway: ${JSON.stringify(afterDisable)}`);
    for (const answer of afterDisable) {
      expect(answer.last).toBe(403);
      expect(answer.afterMs).toBeLessThan(STALE_AFTER_ANSWER_LIMIT_MS);
    }
  }, 120_000);

  it('the webhook process applies a changed allow-list right after the panel answers', async () => {
    const { transport, panel, webhooks, token } = fixture();
    const auth = { authorization: `Bearer ${token}` };
    // Past the allow-list, an unknown transaction is a 404: the infrastructure was read and is now cached.
    const webhook = () =>
      http('POST', webhooks.url('/deposit/callback/dist'), { transactionId: 'NO-SUCH-TX', status: 'approved' });
    const until = async (wanted: number, answeredAtMs: number) => {
      let last = await webhook();
      while (last.status !== wanted && Date.now() - answeredAtMs < STALE_AFTER_ANSWER_LIMIT_MS) {
        await sleep(10);
        last = await webhook();
      }
      return { status: last.status, afterMs: Date.now() - answeredAtMs };
    };
    const save = async (webhookAllowedIps: string[]) => {
      const saved = await http(
        'POST',
        panel.url('/panel/infrastructure/save'),
        { slug: 'dist', webhookAllowedIps },
        auth,
      );
      expect(saved.status).toBe(201);
      return Date.now();
    };
    expect((await webhook()).status).toBe(404);
    const closed = await until(403, await save(['10.9.9.9/32']));
    const reopened = await until(404, await save(['127.0.0.1/32']));
    console.log(
      `${transport.name}: the webhook process after allow-list changes: ${JSON.stringify({ closed, reopened })}`,
    );
    // The notice is sent before the answer but heard asynchronously: the bound, not the first call.
    expect(closed.status).toBe(403);
    expect(reopened.status).toBe(404);
    for (const answer of [closed, reopened]) expect(answer.afterMs).toBeLessThan(STALE_AFTER_ANSWER_LIMIT_MS);
  }, 60_000);
}
