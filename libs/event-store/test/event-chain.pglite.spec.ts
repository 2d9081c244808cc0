import { openPglite } from '../src/index.js';
import { describeEventChain } from './event-chain.contract.js';

describeEventChain('PGlite (embedded)', () => openPglite());
