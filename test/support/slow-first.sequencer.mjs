/**
 * Starts the slowest suites first. Jest orders a run by the durations it cached from earlier runs,
 * and without them (a fresh clone, as CI runs) by file size, which starts a 30-line entry spec that
 * boots five processes per transport for three minutes last, alone on one worker while the other
 * has finished: the run's wall time then ends with the longest suite instead of hiding it. Suites
 * listed in suite-seconds.json (measured: `JEST_SUITE_SECONDS_OUT=file npm test`) start first, in
 * the order of their weights there, the rest in Jest's own order. The weights are seconds, rounded
 * so that suites that start their own processes (test/distributed) follow one another rather than
 * start together: two clusters of seven processes at once on two cores stretch the windows they time.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import TestSequencerModule from '@jest/test-sequencer';

const TestSequencer = TestSequencerModule.default ?? TestSequencerModule;
const SECONDS = JSON.parse(readFileSync(new URL('./suite-seconds.json', import.meta.url), 'utf8'));

export default class SlowFirstSequencer extends TestSequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const seconds = (test) => SECONDS[relative(test.context.config.rootDir, test.path)] ?? 0;
    const known = ordered.filter((test) => seconds(test) > 0).sort((a, b) => seconds(b) - seconds(a));
    return [...known, ...ordered.filter((test) => seconds(test) === 0)];
  }
}
