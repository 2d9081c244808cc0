import { openPglite } from '../src/index.js';
import { describeEventStoreContract, postgresHarness } from './event-store.contract.js';

describeEventStoreContract('PGlite (embedded)', () => postgresHarness(() => openPglite()));
