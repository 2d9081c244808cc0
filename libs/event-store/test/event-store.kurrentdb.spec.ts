import { describeEventStoreContract, type EventStoreHarness } from './event-store.contract.js';

/**
 * The same contract suite on KurrentDB. The server cannot run on our machines: without
 * KURRENTDB_URL (e.g. kurrentdb://127.0.0.1:2113?tls=false) the suite is reported as skipped,
 * never as passed, with the reason printed.
 */
const url = process.env.KURRENTDB_URL;

async function kurrentHarness(connectionString: string): Promise<EventStoreHarness> {
  // Loaded only when the suite runs: the client takes about half a second to load.
  const { KurrentDbEventStore, startKurrentConsumer, seedKurrentCheckpoint } =
    await import('../src/kurrentdb/index.js');
  const store = KurrentDbEventStore.connect(connectionString);
  return {
    store,
    // No transaction is shared with the handler: every consumer is at-least-once ('after').
    startConsumer: ({ mode: _mode, ...options }) => startKurrentConsumer(store, options),
    seedCheckpoint: (name, position) => seedKurrentCheckpoint(store, name, position),
    close: () => store.close(),
  };
}

if (url) {
  describeEventStoreContract('KurrentDB', () => kurrentHarness(url));

  describe('KurrentDB hash chain (the PostgreSQL chain, in event metadata)', () => {
    it('8 concurrent writers with expected version any: one unbroken chain the shared verifier accepts', async () => {
      const { KurrentDbEventStore } = await import('../src/kurrentdb/index.js');
      const { ChainVerifier } = await import('../src/index.js');
      const { randomUUID } = await import('node:crypto');
      const store = KurrentDbEventStore.connect(url);
      try {
        const streamId = `chain-${randomUUID()}`;
        await Promise.all(
          Array.from({ length: 8 }, async (_, writer) => {
            for (let i = 0; i < 5; i++) {
              await store.append(
                streamId,
                [{ eventId: randomUUID(), type: 'Hot', schemaVersion: 1, data: { writer, i } }],
                'any',
              );
            }
          }),
        );
        const audited = await store.readStreamAudited(streamId);
        expect(audited.map((e) => e.streamVersion)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
        const verifier = new ChainVerifier();
        expect(audited.map((e) => verifier.accept(e)).filter(Boolean)).toEqual([]);
      } finally {
        await store.close();
      }
    }, 60_000);
  });
} else {
  // Jest hides console output of a suite that only skips: write the reason straight to stderr.
  process.stderr.write(
    'SKIPPED event-store.kurrentdb.spec: set KURRENTDB_URL=kurrentdb://host:2113?tls=false to run the event store contract on KurrentDB\n',
  );
  describe.skip('event store contract on KurrentDB (KURRENTDB_URL not set)', () => {
    it('runs the event store contract suite', () => undefined);
  });
}
