import { checkMatchInvariants } from '../../../services/ledger/src/reconciliation/read-model/match-invariants.js';
import type { ReconciliationFixture } from '../reconciliation-fixture.js';

/** Operator decisions on the queue, and races on one line. */
export function registerDecisions(fixture: () => ReconciliationFixture): void {
  it('operator decisions: approve, paid twice refused then dismissed, received amount, late payment', async () => {
    const { app, client, admin, deps, lineByRef, stateOf } = fixture();
    const b1 = await lineByRef('B1');
    const matched = await client.post(
      `/panel/reconciliation/lines/${b1.lineId}/match`,
      { transactionId: deps.exact.uuid },
      admin,
    );
    expect(matched.status).toBe(201);
    expect(matched.body).toMatchObject({
      state: 'matched',
      mode: 'operator',
      decision: 'approve',
      transactionId: deps.exact.uuid,
    });
    expect((await stateOf(deps.exact)).state).toBe('approved');

    const b7 = await lineByRef('B7');
    const twice = await client.post(
      `/panel/reconciliation/lines/${b7.lineId}/match`,
      { transactionId: deps.exact.uuid },
      admin,
    );
    expect(twice.status).toBe(409);
    expect(twice.body.errorCode).toBe('line_decided');
    const dismissed = await client.post(
      `/panel/reconciliation/lines/${b7.lineId}/dismiss`,
      { reason: 'paid twice, refunded to sender' },
      admin,
    );
    expect(dismissed.status).toBe(201);
    expect(dismissed.body).toMatchObject({
      state: 'dismissed',
      reason: 'paid twice, refunded to sender',
      differences: ['paid_twice'],
    });
    expect(
      (await client.post(`/panel/reconciliation/lines/${b7.lineId}/dismiss`, { reason: 'again' }, admin)).status,
    ).toBe(409);

    const b2 = await lineByRef('B2');
    const received = await client.post(
      `/panel/reconciliation/lines/${b2.lineId}/match`,
      { transactionId: deps.less.uuid, amount: 'received' },
      admin,
    );
    expect(received.status).toBe(201);
    expect(received.body).toMatchObject({ decision: 'approve_received', differences: ['paid_less'] });
    // The requested amount stays in the history; the approval (and so the callback) carries the received one.
    expect(await stateOf(deps.less)).toMatchObject({ state: 'approved', amount: '19999', original: '20000' });
    const approved = await app.db.query<{ amount: string }>(
      `select data->>'amountKurus' as amount from es_events where stream_id = $1 and type = 'TransactionApproved'`,
      [`txn-${deps.less.uuid}`],
    );
    expect(approved.rows).toEqual([{ amount: '19999' }]);

    const b8 = await lineByRef('B8');
    const late = await client.post(
      `/panel/reconciliation/lines/${b8.lineId}/match`,
      { transactionId: deps.late.uuid },
      admin,
    );
    expect(late.status).toBe(201);
    expect(late.body.differences).toEqual(['paid_after_expiry']);
    expect((await stateOf(deps.late)).state).toBe('approved');
  });

  it('ten parallel matches of one line: one approval, one match, the rest refused', async () => {
    const { app, client, admin, deps, lineByRef } = fixture();
    const b4 = await lineByRef('B4');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.post(`/panel/reconciliation/lines/${b4.lineId}/match`, { transactionId: deps.named.uuid }, admin),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const approvals = await app.db.query<{ n: string }>(
      `select count(*)::text as n from es_events where stream_id = $1 and type = 'TransactionApproved'`,
      [`txn-${deps.named.uuid}`],
    );
    expect(approvals.rows[0]!.n).toBe('1');
    expect(await checkMatchInvariants(app.db)).toEqual([]);
  });
}
