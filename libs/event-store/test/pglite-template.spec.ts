import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  isInitialisedDataDir,
  makePgliteTemplate,
  openPglite,
  pgliteTemplate,
  pgliteTemplatePath,
  unpackPgliteTemplate,
} from '../src/index.js';

/**
 * An empty embedded store starts from this machine's template of an initialised data directory
 * (pglite-template.ts) and is a complete, durable PostgreSQL store from its first start.
 */
describe('PGlite data-directory template', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tg-template-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is kept per PGlite version under node_modules/.cache, and made when missing', async () => {
    expect(pgliteTemplatePath()).toMatch(
      /node_modules\/\.cache\/transfergate\/pglite-\d+\.\d+\.\d+-postgres-only\.tar\.gz$/,
    );
    const made = await makePgliteTemplate(join(dir, 'made', 'template.tar.gz'));
    expect(statSync(made).size).toBeGreaterThan(100_000);
    expect(existsSync(`${made}.${process.pid}.partial`)).toBe(false);
    const template = await pgliteTemplate();
    expect(template).toBe(pgliteTemplatePath());
    expect(statSync(template!).size).toBeGreaterThan(100_000);
  }, 180_000);

  it('unpacks into an empty directory, over a start killed while unpacking, and leaves nothing beside it', async () => {
    const dataDir = join(dir, 'pgdata');
    mkdirSync(dataDir);
    // What a start killed halfway through the unpacking leaves: a partial sibling, never the store.
    mkdirSync(`${dataDir}.unpacking`);
    writeFileSync(join(`${dataDir}.unpacking`, 'PG_VERSION'), '17\n');
    expect(await unpackPgliteTemplate(dataDir)).toBe(true);
    expect(isInitialisedDataDir(dataDir)).toBe(true);
    const db = await openPglite(dataDir);
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['base', 'global', 'pg_wal', 'postgresql.conf']));
    expect((await db.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }]);
    // The template databases are left out: PGlite opens `postgres` only.
    expect((await db.query<{ datname: string }>('select datname from pg_database')).rows).toEqual([
      { datname: 'postgres' },
    ]);
    expect(readdirSync(join(dataDir, 'base'))).toHaveLength(1);
    await db.close();
    expect(readdirSync(dir).sort()).toEqual(['pgdata']);
  }, 180_000);

  it('leaves a non-empty, uninitialised directory to PGlite', async () => {
    const dataDir = join(dir, 'pgdata');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'stray'), 'x');
    expect(await unpackPgliteTemplate(dataDir)).toBe(false);
    expect(readdirSync(dataDir)).toEqual(['stray']);
    expect(existsSync(`${dataDir}.unpacking`)).toBe(false);
  });

  it('gives an empty data directory a store that works and keeps its data across a reopen', async () => {
    const dataDir = join(dir, 'pgdata');
    expect(isInitialisedDataDir(dataDir)).toBe(false);
    const first = await openPglite(dataDir);
    expect(isInitialisedDataDir(dataDir)).toBe(true);
    await first.exec('create table kept (id int primary key, note text)');
    await first.query('insert into kept values ($1, $2)', [1, 'Öztürk']);
    const settings = await first.query<{ shared_buffers: string }>(
      "select current_setting('shared_buffers') as shared_buffers",
    );
    expect(settings.rows[0]!.shared_buffers).toBe('64MB');
    await first.close();

    const again = await openPglite(dataDir);
    expect((await again.query<{ note: string }>('select note from kept where id = 1')).rows).toEqual([
      { note: 'Öztürk' },
    ]);
    await again.close();
  }, 180_000);
});
