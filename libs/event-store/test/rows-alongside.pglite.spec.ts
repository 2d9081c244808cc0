import { openPglite } from '../src/index.js';
import { describeRowsAlongside } from './rows-alongside.contract.js';

describeRowsAlongside('PGlite (embedded)', () => openPglite());
