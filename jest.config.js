/**
 * NestJS 12 is ESM-only, so jest runs in native ESM mode (node --experimental-vm-modules, see the
 * npm scripts) and @swc/jest compiles TypeScript to ES modules with decorator metadata.
 * Workspace packages resolve to their sources so tests never need a build first.
 */
import { readFileSync } from 'node:fs';

const swc = JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'));
delete swc.exclude;
delete swc.$schema;

const workspace = (dir) => `<rootDir>/${dir}/src/index.ts`;

export default {
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
  testMatch: [
    '<rootDir>/{libs,services,apps}/*/src/**/*.spec.ts',
    '<rootDir>/{libs,services,apps}/*/test/**/*.spec.ts',
    '<rootDir>/test/**/*.spec.ts',
  ],
  testTimeout: 60_000,
  globalTeardown: '<rootDir>/test/support/report-open-resources.mjs',
  maxWorkers: 2,
};
