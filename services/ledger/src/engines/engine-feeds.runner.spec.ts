import { ReadModelGapError } from '../read-models/transaction-read-model.js';
import { describeFailure } from './engine-feeds.runner.js';
import { MirrorDivergenceError } from './event-mirror.js';

describe('a feed failure in the log', () => {
  it("names our own errors' streams and versions", () => {
    expect(describeFailure(new MirrorDivergenceError('txn-1', 3))).toBe(
      "event mirror: stream txn-1 does not hold the store of record's event at version 3",
    );
    expect(describeFailure(new ReadModelGapError('t-1', 2, 4))).toContain('t-1 is at version 2, event has 4');
  });

  it("gives an engine's error by name and code only: its message can quote a document", () => {
    const duplicate = Object.assign(new Error('E11000 duplicate key { paymentToken: "secret-token" }'), {
      name: 'MongoServerError',
      code: 11000,
    });
    expect(describeFailure(duplicate)).toBe('MongoServerError (code 11000)');
    expect(describeFailure(new TypeError('boom with data'))).toBe('TypeError');
    expect(describeFailure('text')).toBe('failed');
  });
});
