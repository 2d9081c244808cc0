import { openPglite } from '../src/index.js';
import { describeEventStoreContract } from './event-store.contract.js';

describeEventStoreContract('PGlite (embedded)', () => openPglite());
