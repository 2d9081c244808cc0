import { seekRepliesOnceJoined } from './reply-readiness.js';

type Seek = { topic: string; partition: number; offset: string };

/**
 * ClientKafka as seekRepliesOnceJoined sees it after a first join that failed: no assignments until
 * the restarted consumer joins (after `joinAfterPolls` reads of them), and kafkajs's seek refusing
 * until then, as it does while no consumer group exists.
 */
function clientJoiningLate(joinAfterPolls: number) {
  let polls = 0;
  const seeks: Seek[] = [];
  const joined = () => polls > joinAfterPolls;
  return {
    seeks,
    getConsumerAssignments: (): Record<string, number> => {
      polls++;
      return joined() ? { 'ledger.cmd.reply': 0, 'ledger.query.reply': 0 } : {};
    },
    consumer: {
      seek: (entry: Seek) => {
        if (!joined()) throw new Error('Consumer group was not initialized, consumer#run must be called first');
        seeks.push(entry);
      },
    },
  };
}

const STARTS = [
  { topic: 'ledger.cmd.reply', partition: 0, offset: '7' },
  { topic: 'ledger.cmd.reply', partition: 1, offset: '3' },
  { topic: 'ledger.query.reply', partition: 0, offset: '0' },
];

describe('seekRepliesOnceJoined', () => {
  it('seeks once the restarted consumer has joined, not before', async () => {
    const client = clientJoiningLate(3);
    await seekRepliesOnceJoined(client, ['ledger.cmd', 'ledger.query'], STARTS, 5_000);
    expect(client.seeks).toEqual(STARTS);
  });

  it('seeks at once after a first join that succeeded', async () => {
    const client = clientJoiningLate(0);
    await seekRepliesOnceJoined(client, ['ledger.cmd', 'ledger.query'], STARTS, 5_000);
    expect(client.seeks).toEqual(STARTS);
  });

  it('gives up after its bound, naming the reply topics never assigned, and seeks nothing', async () => {
    const client = clientJoiningLate(Number.MAX_SAFE_INTEGER);
    await expect(seekRepliesOnceJoined(client, ['ledger.cmd', 'ledger.query'], STARTS, 120)).rejects.toThrow(
      'Kafka reply topics not assigned after 120 ms: ledger.cmd.reply, ledger.query.reply',
    );
    expect(client.seeks).toEqual([]);
  });
});
