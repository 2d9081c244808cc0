import { CSV_PRESETS } from '@transfergate/contracts';
import { buildZip, workbookEntries } from '../../../../../test/support/zip-bomb.js';
import { StatementRefusedError } from './statement.js';
import { XLSX_BOUNDS, assertXlsxBounded } from './xlsx-bounds.js';
import { parseXlsx } from './xlsx.js';

const MiB = 1024 * 1024;

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StatementRefusedError);
  return (error as StatementRefusedError).problems.map((p) => p.message).join('; ');
}

/**
 * Zip bombs made here, a chunk at a time: the parser refuses each by the bound it passes, before the
 * reader inflates anything, and holds no more than a chunk while it checks.
 */
describe('XLSX decompression bounds', () => {
  it('refuses a sheet that declares more than the per-entry bound (a 256 MiB bomb), naming the bound', async () => {
    const bomb = await buildZip(workbookEntries({ size: 256 * MiB, prefix: '<worksheet>' }));
    expect(bomb.length).toBeLessThan(1 * MiB);
    const rssBefore = process.memoryUsage().rss;
    const message = await refusal(parseXlsx(bomb, CSV_PRESETS['is-bankasi']!));
    expect(message).toMatch(/xl\/worksheets\/sheet1\.xml unpacks to 256(\.\d+)? MiB; the limit per entry is 32 MiB/);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * MiB);
  });

  it('refuses a bomb that lies about its size once it inflates past what it declares, holding a chunk at most', async () => {
    const bomb = await buildZip(workbookEntries({ size: 256 * MiB, prefix: '<worksheet>' }, 2_000));
    const rssBefore = process.memoryUsage().rss;
    const message = await refusal(parseXlsx(bomb, CSV_PRESETS['is-bankasi']!));
    expect(message).toContain('xl/worksheets/sheet1.xml unpacks to more than the 2000 bytes it declares');
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * MiB);
  });

  it('refuses an entry under the size bound whose ratio passes the ratio bound', async () => {
    const bomb = await buildZip(workbookEntries({ size: 8 * MiB, prefix: '<worksheet>' }));
    const message = await refusal(assertXlsxBounded(bomb));
    expect(message).toMatch(/sheet1\.xml unpacks to \d+ times its packed size; the limit is 200 times/);
  });

  it('refuses an archive whose entries together pass the total bound, also when they lie about it', async () => {
    const bounds = { ...XLSX_BOUNDS, maxEntryBytes: 2 * MiB, maxTotalBytes: 3 * MiB, maxRatio: 10_000 };
    const parts = (declared?: number) =>
      [1, 2, 3].map((i) => ({
        name: `xl/part${i}.xml`,
        content: { size: 1.5 * MiB },
        ...(declared !== undefined ? { declaredSize: declared } : {}),
      }));
    expect(await refusal(assertXlsxBounded(await buildZip(parts()), bounds))).toContain(
      'the archive unpacks to more than 3 MiB in total; the limit is 3 MiB',
    );
    // Declared small (so the declared sum passes) but each inflates to what it is.
    const liar = await buildZip(parts(2 * MiB - 1).map((p, i) => (i === 2 ? p : { ...p, declaredSize: undefined })));
    expect(await refusal(assertXlsxBounded(liar, { ...bounds, maxTotalBytes: 4 * MiB }))).toMatch(
      /in total; the limit is 4 MiB/,
    );
  });

  it('refuses an archive of too many entries', async () => {
    const many = await buildZip(Array.from({ length: 12 }, (_, i) => ({ name: `e${i}.xml`, content: '<a/>' })));
    expect(await refusal(assertXlsxBounded(many, { ...XLSX_BOUNDS, maxEntries: 10 }))).toContain(
      'the archive has 12 entries; the limit is 10',
    );
  });

  it('lets a real workbook through', async () => {
    const { default: writeXlsxFile } = await import('write-excel-file/node');
    const workbook = await writeXlsxFile([[{ value: 'Tarih', type: String }]] as never).toBuffer();
    await expect(assertXlsxBounded(workbook)).resolves.toBeUndefined();
  });
});
