import { randomBytes } from 'node:crypto';
import { DataKeyUnwrapError, MasterKeyProvider, newDataKey } from './key-provider.js';
import { PersonalFieldError, decryptField, encryptField, fieldKeyRef, isEncryptedField } from './field-cipher.js';

describe('envelope encryption of personal fields', () => {
  const master = new MasterKeyProvider(randomBytes(32));
  const keyRef = randomBytes(16).toString('hex');

  it('wraps a data key that only the same master key unwraps', async () => {
    const dataKey = newDataKey();
    const wrapped = await master.wrap(dataKey);
    expect(wrapped).not.toContain(dataKey.toString('base64url'));
    expect(await master.unwrap(wrapped)).toEqual(dataKey);
    const other = new MasterKeyProvider(randomBytes(32));
    await expect(other.unwrap(wrapped)).rejects.toBeInstanceOf(DataKeyUnwrapError);
    await expect(other.unwrap(wrapped)).rejects.toThrow(
      /wrapped by master key .* this process has .*TRANSFERGATE_SECRET_KEY/,
    );
  });

  it('refuses an altered wrapped key', async () => {
    const wrapped = await master.wrap(newDataKey());
    const parts = wrapped.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    await expect(master.unwrap(parts.join('.'))).rejects.toThrow(/altered/);
    await expect(master.unwrap('plain text')).rejects.toThrow(/not a wrapped data key/);
  });

  it('encrypts a field bound to its event and path', () => {
    const dataKey = newDataKey();
    const sealed = encryptField(dataKey, keyRef, 'event-1\ncustomer.fullName', 'Ayşe Yılmaz');
    expect(isEncryptedField(sealed)).toBe(true);
    expect(sealed).not.toContain('Ay');
    expect(fieldKeyRef(sealed)).toBe(keyRef);
    expect(decryptField(dataKey, 'event-1\ncustomer.fullName', sealed)).toBe('Ayşe Yılmaz');
    expect(() => decryptField(dataKey, 'event-2\ncustomer.fullName', sealed)).toThrow(PersonalFieldError);
    expect(() => decryptField(newDataKey(), 'event-1\ncustomer.fullName', sealed)).toThrow(/does not open/);
    expect(isEncryptedField('Ayşe')).toBe(false);
    expect(() => fieldKeyRef('pd1.nothex.x.y')).toThrow(/not an encrypted/);
  });
});
