import { createCipheriv, createDecipheriv, randomFillSync } from 'node:crypto';
import { DATA_KEY_BYTES } from './key-provider.js';

/**
 * One personal field, encrypted with its customer's data key (AES-256-GCM): the text
 * `pd1.<key ref>.<iv>.<ciphertext and tag>`, base64url. The key ref names the data key (a row of the
 * key table); the additional data binds the ciphertext to its event and field, so a value copied
 * into another event or field does not open. The event's hash chain covers this text.
 */
export const FIELD_FORMAT = 'pd1';
const PREFIX = `${FIELD_FORMAT}.`;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A key ref: 16 random bytes, hex. */
export const KEY_REF_PATTERN = /^[0-9a-f]{32}$/;

/** IVs drawn from the CSPRNG at once: a call per field cost as much as the encryption itself. */
const IVS_PER_DRAW = 512;
let ivPool = Buffer.alloc(0);
let ivOffset = 0;

/** A fresh random IV (96 bits, as GCM wants), each pool byte handed out once. */
function freshIv(): Buffer {
  if (ivOffset + IV_BYTES > ivPool.length) {
    ivPool = randomFillSync(Buffer.allocUnsafe(IV_BYTES * IVS_PER_DRAW));
    ivOffset = 0;
  }
  const iv = ivPool.subarray(ivOffset, ivOffset + IV_BYTES);
  ivOffset += IV_BYTES;
  return iv;
}

export class PersonalFieldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PersonalFieldError';
  }
}

export function isEncryptedField(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

/** The key ref of an encrypted field (without decrypting it). */
export function fieldKeyRef(value: string): string {
  const end = value.indexOf('.', PREFIX.length);
  const ref = value.slice(PREFIX.length, end);
  if (end < 0 || !KEY_REF_PATTERN.test(ref)) throw new PersonalFieldError('not an encrypted personal field');
  return ref;
}

export function encryptField(dataKey: Buffer, keyRef: string, context: string, plain: string): string {
  if (dataKey.length !== DATA_KEY_BYTES) throw new RangeError(`a data key is ${DATA_KEY_BYTES} bytes`);
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', dataKey, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${keyRef}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

export function decryptField(dataKey: Buffer, context: string, value: string): string {
  const [format, , iv, body] = value.split('.');
  if (format !== FIELD_FORMAT || !iv || body === undefined)
    throw new PersonalFieldError('not an encrypted personal field');
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.length < TAG_BYTES) throw new PersonalFieldError('an encrypted personal field is cut short');
  try {
    const decipher = createDecipheriv('aes-256-gcm', dataKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new PersonalFieldError(`the personal field (${context}) does not open with its key: altered or moved`);
  }
}
