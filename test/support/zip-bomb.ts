import { createDeflateRaw, crc32 } from 'node:zlib';

/**
 * Zip archives built byte by byte for tests, among them zip bombs: an entry of `size` bytes of one
 * repeated character deflates to about a thousandth of it, and is produced a chunk at a time, so the
 * test never holds what the archive unpacks to. `declaredSize` lets an entry lie about its size.
 */
export interface ZipEntrySpec {
  name: string;
  /** Literal content, or `{ size, fill }`: `size` bytes of `fill` after an optional `prefix`. */
  content: string | { size: number; fill?: string; prefix?: string };
  declaredSize?: number;
}

const CHUNK_BYTES = 1024 * 1024;

async function deflate(spec: ZipEntrySpec['content']) {
  const deflater = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflater.on('end', resolve);
    deflater.on('error', reject);
  });
  let crc = 0;
  let size = 0;
  const write = async (chunk: Buffer) => {
    crc = crc32(chunk, crc);
    size += chunk.length;
    if (!deflater.write(chunk)) await new Promise((resolve) => deflater.once('drain', resolve));
  };
  if (typeof spec === 'string') await write(Buffer.from(spec, 'utf8'));
  else {
    if (spec.prefix) await write(Buffer.from(spec.prefix, 'utf8'));
    const block = Buffer.alloc(CHUNK_BYTES, spec.fill ?? ' ');
    for (let left = spec.size; left > 0; left -= CHUNK_BYTES)
      await write(block.subarray(0, Math.min(left, CHUNK_BYTES)));
  }
  deflater.end();
  await done;
  return { data: Buffer.concat(out), crc, size };
}

export async function buildZip(entries: ZipEntrySpec[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const { data, crc, size } = await deflate(entry.content);
    const declared = entry.declaredSize ?? size;
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A workbook's frame around a sheet: what a reader opens before it reaches the sheet. */
export function workbookEntries(sheet: ZipEntrySpec['content'], declaredSize?: number): ZipEntrySpec[] {
  return [
    {
      name: '[Content_Types].xml',
      content:
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '</Types>',
    },
    {
      name: 'xl/workbook.xml',
      content:
        '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
        '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content:
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        '</Relationships>',
    },
    { name: 'xl/worksheets/sheet1.xml', content: sheet, ...(declaredSize !== undefined ? { declaredSize } : {}) },
  ];
}
