import { describeEventStoreContract, postgresHarness } from './event-store.contract.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

describeEventStoreContract('PostgreSQL server', () => postgresHarness(() => openTestPostgres('es')));
