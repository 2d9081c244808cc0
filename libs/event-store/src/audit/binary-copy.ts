/**
 * PostgreSQL's binary COPY format (`COPY … TO STDOUT (FORMAT binary)`), read from one buffer that
 * holds a whole COPY's output: where each field of each row sits, without decoding any of them.
 *
 * Why by hand: pg (node-postgres) reads COPY output only as a byte stream (pg-copy-streams), and its
 * own binary result mode decodes every field as UTF-8 text; the format is small and fixed
 * (https://www.postgresql.org/docs/current/sql-copy.html, "Binary Format"):
 *   header:  the 11-byte signature, an int32 of flags, an int32 extension length and that many bytes
 *   per row: an int16 field count, then per field an int32 byte length (-1: null) and the bytes
 *   trailer: an int16 of -1
 */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Flags bit 16: OIDs included (never asked for here); bits 0-15 must be zero, 17-31 are ignorable. */
const FLAG_OIDS = 1 << 16;
const CRITICAL_FLAGS = 0xffff;
const NULL_FIELD = -1;

/**
 * Where the fields of a COPY's rows are: for row r and field f, `starts[r * fieldsPerRow + f]` is the
 * field's first byte in `buffer` and `lengths[…]` its byte length, or -1 for a null.
 */
export interface CopiedRows {
  buffer: Buffer;
  fieldsPerRow: number;
  rows: number;
  starts: Int32Array;
  lengths: Int32Array;
}

/** Reads a whole binary COPY output of rows of `fieldsPerRow` fields; `maxRows` bounds what it may hold. */
export function readBinaryCopy(buffer: Buffer, fieldsPerRow: number, maxRows: number): CopiedRows {
  if (!Number.isInteger(fieldsPerRow) || fieldsPerRow < 1 || fieldsPerRow > 1_600) {
    throw new RangeError(`a row has 1..1600 fields, not ${fieldsPerRow}`);
  }
  if (!Number.isInteger(maxRows) || maxRows < 0) throw new RangeError(`maxRows must be a count, got ${maxRows}`);
  if (buffer.length < SIGNATURE.length + 8 || !buffer.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
    throw new Error('binary COPY: no PGCOPY header');
  }
  const flags = buffer.readUInt32BE(SIGNATURE.length);
  if ((flags & CRITICAL_FLAGS) !== 0 || (flags & FLAG_OIDS) !== 0) {
    throw new Error(`binary COPY: unsupported header flags ${flags.toString(16)}`);
  }
  let at = SIGNATURE.length + 8 + buffer.readUInt32BE(SIGNATURE.length + 4);
  const starts = new Int32Array(maxRows * fieldsPerRow);
  const lengths = new Int32Array(maxRows * fieldsPerRow);
  let rows = 0;
  for (;;) {
    if (at + 2 > buffer.length) throw new Error('binary COPY: cut short before its trailer');
    const count = buffer.readInt16BE(at);
    at += 2;
    if (count === -1) break;
    if (count !== fieldsPerRow) throw new Error(`binary COPY: a row of ${count} fields, expected ${fieldsPerRow}`);
    if (rows === maxRows) throw new Error(`binary COPY: more than ${maxRows} rows`);
    const first = rows * fieldsPerRow;
    for (let f = first; f < first + fieldsPerRow; f++) {
      if (at + 4 > buffer.length) throw new Error('binary COPY: cut short in a row');
      const length = buffer.readInt32BE(at);
      at += 4;
      if (length < NULL_FIELD || at + length > buffer.length) throw new Error('binary COPY: a field past the end');
      starts[f] = at;
      lengths[f] = length;
      if (length > 0) at += length;
    }
    rows += 1;
  }
  if (at !== buffer.length) throw new Error('binary COPY: bytes after its trailer');
  return { buffer, fieldsPerRow, rows, starts, lengths };
}
