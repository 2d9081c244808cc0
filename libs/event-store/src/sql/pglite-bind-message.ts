import { Buffer } from 'node:buffer';

/** A parameter as PGlite's serializers leave it: text, raw bytes (a bytea sent in binary) or NULL. */
export type BindValue = string | ArrayBuffer | ArrayBufferView | null;

const PORTAL = ''; // the unnamed portal, as PGlite's own query() uses

/**
 * The Bind (unnamed portal, named statement, text results), Execute and Sync messages of one run,
 * byte for byte what `concat([protocol.serialize.bind({ statement, values }), execute, sync])`
 * builds. PGlite's writer sizes every string with a per-character JavaScript loop (twice) and
 * copies the parameters four times on the way; the deposit path's parameters are JSON payloads of
 * tens of kilobytes (a group append, a projection batch), so here each is sized by
 * Buffer.byteLength and written once into one buffer. Format codes as PGlite sends them: one per
 * parameter, 0 (text) for a string, 1 (binary) for bytes.
 */
export function bindExecuteSync(
  statement: string,
  values: readonly BindValue[],
  execute: Uint8Array,
  sync: Uint8Array,
): Uint8Array {
  const bytes = values.map((value) => (value === null || typeof value === 'string' ? value : asBytes(value)));
  let valuesLength = 0;
  for (const value of bytes) {
    valuesLength += 4 + (value === null ? 0 : typeof value === 'string' ? Buffer.byteLength(value) : value.byteLength);
  }
  // Length field (4), portal and statement names (C strings), format codes (2 + 2 each),
  // parameters (2 + values), result format codes (2: none, all text).
  const bodyLength =
    4 + Buffer.byteLength(PORTAL) + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 * bytes.length + 2 + valuesLength + 2;
  const out = new Uint8Array(1 + bodyLength + execute.byteLength + sync.byteLength);
  const buffer = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  let at = buffer.writeUInt8(0x42 /* B */, 0);
  at = buffer.writeInt32BE(bodyLength, at);
  at += buffer.write(PORTAL, at);
  at = buffer.writeUInt8(0, at);
  at += buffer.write(statement, at);
  at = buffer.writeUInt8(0, at);
  at = buffer.writeUInt16BE(bytes.length, at);
  for (const value of bytes) at = buffer.writeInt16BE(value !== null && typeof value !== 'string' ? 1 : 0, at);
  at = buffer.writeUInt16BE(bytes.length, at);
  for (const value of bytes) {
    if (value === null) {
      at = buffer.writeInt32BE(-1, at);
    } else if (typeof value === 'string') {
      const length = buffer.write(value, at + 4);
      buffer.writeInt32BE(length, at);
      at += 4 + length;
    } else {
      at = buffer.writeInt32BE(value.byteLength, at);
      out.set(value, at);
      at += value.byteLength;
    }
  }
  at = buffer.writeInt16BE(0, at);
  out.set(execute, at);
  out.set(sync, at + execute.byteLength);
  return out;
}

function asBytes(value: ArrayBuffer | ArrayBufferView): Uint8Array {
  return value instanceof ArrayBuffer
    ? new Uint8Array(value)
    : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}
