import { ENGINES } from '../support/test-app.js';
import { useReconciliationFixture } from './reconciliation-fixture.js';
import { registerDecisions } from './scenarios/decisions.js';
import { registerImports } from './scenarios/imports.js';
import { registerRefusalsAndReplay } from './scenarios/refusals-and-replay.js';
import { registerReports } from './scenarios/reports.js';

/**
 * Reconciliation over real HTTP on both engines: deposits from the gateway, bank statements uploaded
 * as raw files, the queue with candidates and reasons, operator decisions (approve, at the received
 * amount, after expiry, dismiss), automatic approval when the infrastructure allows it, repeated
 * and overlapping imports, races on one line, bad input, and the replay rebuilding it all.
 *
 * The app is started once per engine, here; the scenarios (./scenarios/) run on it in this order and
 * build on each other: they decide the same statement lines and the summary counts every decision.
 */
describe.each(ENGINES)('reconciliation (%s)', (engine) => {
  const fixture = useReconciliationFixture(engine);
  registerImports(fixture);
  registerDecisions(fixture);
  registerReports(fixture);
  registerRefusalsAndReplay(fixture);
});
