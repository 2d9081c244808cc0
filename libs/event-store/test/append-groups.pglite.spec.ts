import { openPglite } from '../src/index.js';
import { describeAppendGroups } from './append-groups.contract.js';

describeAppendGroups('PGlite (embedded)', () => openPglite());
