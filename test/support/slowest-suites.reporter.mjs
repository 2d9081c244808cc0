/**
 * Prints, once every suite has finished, the run's wall time and its ten slowest suites, so the
 * suite to make faster is named by the run itself rather than guessed. A suite's time is its own
 * start to end inside its worker (module loading and its beforeAll/afterAll included).
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const SHOWN = 10;

export default class SlowestSuitesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .filter((suite) => suite.perfStats?.end > 0 && suite.perfStats?.start > 0)
      .map((suite) => ({
        path: relative(this.rootDir, suite.testFilePath),
        ms: suite.perfStats.end - suite.perfStats.start,
      }))
      .sort((a, b) => b.ms - a.ms);
    // JEST_SUITE_SECONDS_OUT=file writes every suite's seconds, the input of suite-seconds.json.
    const out = process.env.JEST_SUITE_SECONDS_OUT;
    if (out) {
      const seconds = Object.fromEntries(suites.map(({ path, ms }) => [path, Math.round(ms / 100) / 10]));
      writeFileSync(out, `${JSON.stringify(seconds, null, 2)}\n`);
    }
    suites.splice(SHOWN);
    if (suites.length === 0) return;
    const wallS = ((Date.now() - results.startTime) / 1000).toFixed(1);
    const lines = suites.map(({ path, ms }) => `${(ms / 1000).toFixed(1).padStart(8)} s  ${path}`);
    process.stderr.write(
      `\njest: ${results.numTotalTestSuites} suites in ${wallS} s wall; the ${suites.length} slowest:\n${lines.join('\n')}\n`,
    );
  }
}
