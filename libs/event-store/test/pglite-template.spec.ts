import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  isInitialisedDataDir,
  makePgliteTemplate,
  openPglite,
  pgliteTemplate,
  pgliteTemplatePath,
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
    expect(pgliteTemplatePath()).toMatch(/node_modules\/\.cache\/transfergate\/pglite-\d+\.\d+\.\d+-datadir\.tar\.gz$/);
    const made = await makePgliteTemplate(join(dir, 'made', 'template.tar.gz'));
    expect(statSync(made).size).toBeGreaterThan(100_000);
    expect(existsSync(`${made}.${process.pid}.partial`)).toBe(false);
    const template = await pgliteTemplate();
    expect(template?.size).toBeGreaterThan(100_000);
  }, 180_000);

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
    expect(settings.rows[0]!.shared_buffers).toBe('32MB');
    await first.close();

    const again = await openPglite(dataDir);
    expect((await again.query<{ note: string }>('select note from kept where id = 1')).rows).toEqual([
      { note: 'Öztürk' },
    ]);
    await again.close();
  }, 180_000);
});
