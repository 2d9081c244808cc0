import { describeRowsAlongside } from './rows-alongside.contract.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

describeRowsAlongside('PostgreSQL server', () => openTestPostgres('alongside'));
