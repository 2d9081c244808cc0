// Micro-benchmark (not part of `npm run bench`): the Bind + Execute + Sync message of one group
// append of 21 deposits (a ~21 KB JSON parameter) built by PGlite's serializer and by
// pglite-bind-message.ts, CPU per call, three alternating rounds in one process.
//   node bench/pglite-bind-micro.mjs   (after npm run build)
import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { protocol } from '@electric-sql/pglite';
import { bindExecuteSync } from '../libs/event-store/dist/sql/pglite-bind-message.js';
const EXECUTE = protocol.serialize.execute({});
const SYNC = protocol.serialize.sync();
function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
const ev = (i) => ({
  m: i,
  w: 0,
  s: `txn-${randomUUID()}`,
  k: 'no_stream',
  ev: [
    {
      id: randomUUID(),
      type: 'DepositRequested',
      v: 1,
      data: {
        transactionId: randomUUID(),
        number: 1000 + i,
        merchantId: randomUUID(),
        providerId: randomUUID(),
        infrastructureId: randomUUID(),
        form: 'h2h',
        externalId: `B-xyz-${i}`,
        requestFingerprint: 'f'.repeat(64),
        echo: {},
        amountKurus: '25000',
        customer: { fullName: 'Bench Customer' },
        receivingAccount: {
          bankAccountId: randomUUID(),
          bank: 'Ziraat Bankası',
          bankCode: '0010',
          holderName: 'Bench Ltd',
          iban: 'TR330006100519786457841326',
          fast: true,
        },
        paymentToken: 'p'.repeat(43),
        expiresAt: new Date().toISOString(),
      },
      meta: { actor: 'gateway', source: 'gateway', ip: '127.0.0.1', requestId: randomUUID() },
    },
  ],
});
const payload = JSON.stringify(Array.from({ length: 21 }, (_, i) => ev(i)));
console.log('payload bytes', Buffer.byteLength(payload));
const values = [payload];
const old = () => concat([protocol.serialize.bind({ statement: 'tg_7', values }), EXECUTE, SYNC]);
const neu = () => bindExecuteSync('tg_7', values, EXECUTE, SYNC);
for (let round = 0; round < 3; round++)
  for (const [name, fn] of [
    ['pglite', old],
    ['ours', neu],
  ]) {
    const n = 3000;
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const d = process.cpuUsage(t0);
    console.log(name, ((d.user + d.system) / n).toFixed(1), 'µs/call');
  }
