import { useRecordsWebFixture } from './records-fixture.js';
import { registerForms } from './records-scenarios/forms.js';
import { registerLogs } from './records-scenarios/logs.js';
import { registerRolesAndAuditor } from './records-scenarios/roles-and-auditor.js';
import { registerSecrets } from './records-scenarios/secrets.js';

/**
 * The record and log screens in a real browser (Debian's chromium) against a real app on
 * PostgreSQL: an admin with 2FA creates a merchant and a bank account through the forms, reveals
 * and rotates a provider secret behind confirmation dialogs (the new secret works at /test-auth,
 * a double click rotates once), finds the reveal in the audit log, resends a delivered callback
 * from the callback log; an auditor (Turkish UI) sees none of the buttons it may not use.
 * Screenshots of every main screen go to test-artifacts/screenshots/records-*.png.
 *
 * The app and the browser are started once, here; the scenarios (./records-scenarios/) run on them in
 * this order and build on each other: the reveal is looked up in the audit log, the rotated secret
 * signs the deposit whose callback is resent, and the last test checks the page errors of them all.
 */
describe('panel web: record and log screens in chromium (PostgreSQL)', () => {
  const fixture = useRecordsWebFixture();
  registerForms(fixture);
  registerSecrets(fixture);
  registerLogs(fixture);
  registerRolesAndAuditor(fixture);
});
