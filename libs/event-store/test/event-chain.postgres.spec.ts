import { describeEventChain } from './event-chain.contract.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

describeEventChain('PostgreSQL server', () => openTestPostgres('chain'));
