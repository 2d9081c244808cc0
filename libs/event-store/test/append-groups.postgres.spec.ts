import { describeAppendGroups } from './append-groups.contract.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

describeAppendGroups('PostgreSQL server', () => openTestPostgres('groups'));
