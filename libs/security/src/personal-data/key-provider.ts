import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Wraps and unwraps the customers' data keys (envelope encryption, docs/decisions/0067-personal-data.md).
 * The master key never leaves the provider: MasterKeyProvider holds it in this process (derived from
 * TRANSFERGATE_SECRET_KEY); a KMS-backed provider implements the same three members and keeps it in
 * the KMS. `keyId` names the master key a wrapped key was made with, so a rotation knows what to
 * re-wrap and a wrong key is told apart from a damaged one.
 */
export interface KeyProvider {
  /** A non-secret fingerprint of the master key (stored beside every key it wraps). */
  readonly keyId: string;
  wrap(dataKey: Buffer): Promise<string>;
  unwrap(wrapped: string): Promise<Buffer>;
}

export const DATA_KEY_BYTES = 32;
const WRAP_FORMAT = 'w1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A wrapped key the provider cannot open: made with another master key, or altered. */
export class DataKeyUnwrapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataKeyUnwrapError';
  }
}

/**
 * The master key as an AES-256-GCM key-encryption key, derived (HKDF-SHA256) from the configured
 * 32-byte secret with its own label, so it is never the key that seals provider secrets.
 */
export class MasterKeyProvider implements KeyProvider {
  readonly keyId: string;
  private readonly kek: Buffer;

  constructor(secretKey: Buffer) {
    if (secretKey.length !== 32) throw new RangeError('the master key is 32 bytes');
    this.kek = Buffer.from(hkdfSync('sha256', secretKey, 'transfergate', 'personal-data-key-wrap/1', 32));
    this.keyId = createHash('sha256').update('key-id/1').update(this.kek).digest('hex').slice(0, 16);
  }

  async wrap(dataKey: Buffer): Promise<string> {
    if (dataKey.length !== DATA_KEY_BYTES) throw new RangeError(`a data key is ${DATA_KEY_BYTES} bytes`);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.kek, iv);
    cipher.setAAD(Buffer.from(this.keyId, 'utf8'));
    const body = Buffer.concat([cipher.update(dataKey), cipher.final(), cipher.getAuthTag()]);
    return `${WRAP_FORMAT}.${this.keyId}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  async unwrap(wrapped: string): Promise<Buffer> {
    const [format, keyId, iv, body] = wrapped.split('.');
    if (format !== WRAP_FORMAT || !keyId || !iv || !body) throw new DataKeyUnwrapError('not a wrapped data key');
    if (keyId !== this.keyId) {
      throw new DataKeyUnwrapError(
        `the data key was wrapped by master key ${keyId}, this process has ${this.keyId}: ` +
          'is TRANSFERGATE_SECRET_KEY the one this database was written with?',
      );
    }
    const bytes = Buffer.from(body, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.kek, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(this.keyId, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new DataKeyUnwrapError(`a data key wrapped by master key ${keyId} does not open: it was altered`);
    }
  }
}

export function newDataKey(): Buffer {
  return randomBytes(DATA_KEY_BYTES);
}

/**
 * A rotation's provider: wraps with the new master key and unwraps with whichever of the two made a
 * wrapped key, so processes keep reading while SubjectKeys.rewrapAll moves the keys over.
 */
export class RotatingKeyProvider implements KeyProvider {
  constructor(
    private readonly current: KeyProvider,
    private readonly previous: KeyProvider,
  ) {
    if (current.keyId === previous.keyId) throw new Error('a rotation is between two different master keys');
  }

  get keyId(): string {
    return this.current.keyId;
  }

  wrap(dataKey: Buffer): Promise<string> {
    return this.current.wrap(dataKey);
  }

  unwrap(wrapped: string): Promise<Buffer> {
    const keyId = wrapped.split('.')[1];
    return keyId === this.previous.keyId ? this.previous.unwrap(wrapped) : this.current.unwrap(wrapped);
  }
}
