/**
 * NestJS 12 is ESM-only, so jest runs in native ESM mode (node --experimental-vm-modules, see the
 * npm scripts) and @swc/jest compiles TypeScript to ES modules with decorator metadata.
 * Workspace packages resolve to their sources so tests never need a build first.
 *
 * Two projects (docs/architecture.md, "Tests"):
 * - `unit`: the specs beside the code they pin, `<package>/src/**\/x.spec.ts`, that need no
 *   database, broker, network server or child process. They run in seconds (`npm run test:unit`).
 * - `integration`: everything under a `test/` folder, and a spec under `src/` whose name says the
 *   resource it needs: `x.postgres.spec.ts`, `x.pglite.spec.ts`, `x.broker.spec.ts` (NATS or
 *   Kafka), `x.process.spec.ts` (a child process or a listening server).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const swc = JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'));
delete swc.exclude;
delete swc.$schema;

const rootDir = fileURLToPath(new URL('.', import.meta.url));
const workspace = (dir) => `<rootDir>/${dir}/src/index.ts`;
const RESOURCES = 'postgres,pglite,broker,process';

const shared = {
  rootDir,
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false, sourceMaps: 'inline' }] },
  moduleNameMapper: {
    '^@transfergate/(contracts|event-store|security|observability|messaging|runtime)$': workspace('libs/$1'),
    '^@transfergate/contracts/(panel|errors)$': '<rootDir>/libs/contracts/src/$1/index.ts',
    '^@transfergate/runtime/http$': '<rootDir>/libs/runtime/src/http.ts',
    '^@transfergate/runtime/caching$': '<rootDir>/libs/runtime/src/caching/read-through-cache.ts',
    '^@transfergate/(gateway-api|ledger|panel-api|callback-dispatcher|webhook-ingest)$': workspace('services/$1'),
    '^@transfergate/all-in-one$': workspace('apps/all-in-one'),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
};

export default {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services,apps}/*/src/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', `\\.(${RESOURCES.replaceAll(',', '|')})\\.spec\\.ts$`],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: [
        `<rootDir>/{libs,services,apps}/*/src/**/*.{${RESOURCES}}.spec.ts`,
        '<rootDir>/{libs,services,apps}/*/test/**/*.spec.ts',
        '<rootDir>/test/**/*.spec.ts',
      ],
    },
  ],
  // Every suite has its own PostgreSQL schema, its own ports (0 or test/support/free-port.ts) and
  // its own data directories, so suites run side by side; npm test chooses the worker count.
  maxWorkers: 2,
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/test/support/slowest-suites.reporter.mjs'],
  testSequencer: '<rootDir>/test/support/slow-first.sequencer.mjs',
  globalTeardown: '<rootDir>/test/support/report-open-resources.mjs',
};
