import { jest } from '@jest/globals';

/**
 * The embedded store raises V8's WebAssembly tiering budget before PGlite is instantiated
 * (pglite-tiering.ts): V8 reads the budget at instantiation, so a store that set it afterwards, or
 * not at all, would start with PostgreSQL's start-up code recompiled on the machine's cores.
 */
const flagsSet: string[] = [];
let pgliteCreatedAfterFlags: number | undefined;
jest.unstable_mockModule('node:v8', () => ({
  setFlagsFromString: (flags: string) => void flagsSet.push(flags),
}));
const { PGlite } = await import('@electric-sql/pglite');
const realCreate = PGlite.create.bind(PGlite);
jest.spyOn(PGlite, 'create').mockImplementation(((...args: Parameters<typeof PGlite.create>) => {
  pgliteCreatedAfterFlags = flagsSet.length;
  return realCreate(...args);
}) as typeof PGlite.create);
const { openPglite } = await import('../src/sql/pglite-database.js');
const { PGLITE_WASM_TIERING_BUDGET } = await import('../src/sql/pglite-tiering.js');

describe('PGlite WebAssembly tiering budget', () => {
  it('is raised to ten times V8 default before PGlite is created', async () => {
    const db = await openPglite();
    try {
      expect(flagsSet).toEqual([`--wasm-tiering-budget=${PGLITE_WASM_TIERING_BUDGET}`]);
      expect(PGLITE_WASM_TIERING_BUDGET).toBe(10 * 1_800_000);
      expect(pgliteCreatedAfterFlags).toBe(1);
      expect((await db.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
