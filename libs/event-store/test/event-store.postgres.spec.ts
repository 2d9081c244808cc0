import { describeEventStoreContract } from './event-store.contract.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

describeEventStoreContract('PostgreSQL server', () => openTestPostgres('es'));
