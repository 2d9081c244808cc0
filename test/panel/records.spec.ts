import { registerCreating } from './records-scenarios/creating.js';
import { registerDeletingAndSettings } from './records-scenarios/deleting-and-settings.js';
import { registerReadsAndAudit } from './records-scenarios/reads-and-audit.js';
import { registerRolesAndGateway } from './records-scenarios/roles-and-gateway.js';
import { useRecordsFixture } from './records-fixture.js';

/**
 * Back-office records, API settings, config reads and audit over HTTP on PostgreSQL. The app is
 * started once, here; the scenarios (./records-scenarios/) run on it in this order and build on each
 * other: the records created first are revealed, toggled, rotated and deleted later, and the audit
 * and config reads check everything done before them.
 */
describe('back-office records, API settings, config reads and audit over HTTP (PostgreSQL)', () => {
  const fixture = useRecordsFixture();
  registerCreating(fixture);
  registerRolesAndGateway(fixture);
  registerDeletingAndSettings(fixture);
  registerReadsAndAudit(fixture);
});
