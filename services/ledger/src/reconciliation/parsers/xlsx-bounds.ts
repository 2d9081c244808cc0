import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ProblemList } from './statement.js';

/**
 * An XLSX file is a zip archive, and a zip entry may unpack to a thousand times its size: a 3 MB
 * upload can be 1 GB of XML, which the reader would inflate whole in memory. Before the workbook is
 * read, every entry is checked against these bounds, first by the sizes the archive declares and
 * then by inflating the entries the reader would inflate as a stream, counting bytes and throwing
 * them away (a declared size may lie: an entry that inflates past its declared size is refused). Nothing beyond a chunk is held while checking, and a file over a bound is refused whole
 * with the bound it passed named.
 *
 * The bounds leave room for real exports: a bank statement sheet is about 300 bytes of XML per line,
 * so 32 MiB is some 100,000 lines (a busy account's day is a few thousand); XML compresses 5-30
 * times, a zip bomb about 1,000 times.
 */
export interface XlsxBounds {
  /** Entries in the archive (a workbook has a dozen or two). */
  maxEntries: number;
  /** Unpacked bytes of one entry. */
  maxEntryBytes: number;
  /** Unpacked bytes of all entries together. */
  maxTotalBytes: number;
  /** Unpacked bytes per packed byte of one entry, judged once it unpacks past `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

const MiB = 1024 * 1024;

export const XLSX_BOUNDS: XlsxBounds = {
  maxEntries: 1_000,
  maxEntryBytes: 32 * MiB,
  maxTotalBytes: 64 * MiB,
  maxRatio: 200,
  ratioFloorBytes: 1 * MiB,
};

/** The entries read-excel-file inflates (its filterZipArchiveEntry): the rest it skips. */
const isRead = (name: string) => name.endsWith('.xml') || name.endsWith('.xml.rels');

const mib = (bytes: number) => `${Math.round((bytes / MiB) * 10) / 10} MiB`;

class BoundPassed extends Error {}

/** Refuses (StatementRefusedError, `422 statement_refused`) an archive that passes a bound. */
export async function assertXlsxBounded(content: Buffer, bounds: XlsxBounds = XLSX_BOUNDS): Promise<void> {
  const problems = new ProblemList();
  try {
    await walk(content, bounds);
  } catch (error) {
    problems.add(
      'file',
      error instanceof BoundPassed
        ? error.message
        : `unreadable XLSX: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  problems.throwIfAny();
}

async function walk(content: Buffer, bounds: XlsxBounds): Promise<void> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(content, { lazyEntries: true, validateEntrySizes: false }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  try {
    if (zip.entryCount > bounds.maxEntries) {
      throw new BoundPassed(`the archive has ${zip.entryCount} entries; the limit is ${bounds.maxEntries}`);
    }
    let declaredTotal = 0;
    let inflatedTotal = 0;
    for (let entry = await next(zip); entry; entry = await next(zip)) {
      const name = entry.fileName;
      checkEntry(name, entry.uncompressedSize, entry.compressedSize, bounds);
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > bounds.maxTotalBytes) {
        throw new BoundPassed(
          `the archive unpacks to more than ${mib(bounds.maxTotalBytes)} in total; the limit is ${mib(bounds.maxTotalBytes)}`,
        );
      }
      if (!isRead(name) || entry.isEncrypted()) continue;
      inflatedTotal = await inflateCounting(zip, entry, inflatedTotal, bounds);
    }
  } finally {
    zip.close();
  }
}

function checkEntry(name: string, unpackedBytes: number, packedBytes: number, bounds: XlsxBounds): void {
  if (unpackedBytes > bounds.maxEntryBytes) {
    throw new BoundPassed(
      `${name} unpacks to ${mib(unpackedBytes)}; the limit per entry is ${mib(bounds.maxEntryBytes)}`,
    );
  }
  if (unpackedBytes > bounds.ratioFloorBytes && unpackedBytes > bounds.maxRatio * Math.max(packedBytes, 1)) {
    throw new BoundPassed(
      `${name} unpacks to ${Math.floor(unpackedBytes / Math.max(packedBytes, 1))} times its packed size; ` +
        `the limit is ${bounds.maxRatio} times`,
    );
  }
}

function next(zip: ZipFile): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: Entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(undefined));
    const onError = (error: Error) => (cleanup(), reject(error));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** Inflates one entry as a stream, counting its bytes; returns the running total. */
function inflateCounting(zip: ZipFile, entry: Entry, totalBefore: number, bounds: XlsxBounds): Promise<number> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        try {
          if (bytes > entry.uncompressedSize) {
            throw new BoundPassed(
              `${entry.fileName} unpacks to more than the ${entry.uncompressedSize} bytes it declares`,
            );
          }
          checkEntry(entry.fileName, bytes, entry.compressedSize, bounds);
          if (totalBefore + bytes > bounds.maxTotalBytes) {
            throw new BoundPassed(
              `the archive unpacks to more than ${mib(bounds.maxTotalBytes)} in total; the limit is ${mib(bounds.maxTotalBytes)}`,
            );
          }
        } catch (passed) {
          stream.destroy();
          reject(passed);
        }
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(totalBefore + bytes));
    });
  });
}
