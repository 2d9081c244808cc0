import { v5 as uuidv5 } from 'uuid';
import { transactionIdFor } from '@transfergate/contracts';
import { configIdFor } from './ids.js';
import { newPaymentToken, PAYMENT_TOKEN_BYTES } from '../commands/payment-token.js';

const NAMESPACE = '0b5e3b9a-6f3f-4d7e-9a57-2f8f0c1d9e11';

describe('name-based ids', () => {
  it('are exactly the uuid library v5 of the name under the namespace (stream keys never move)', () => {
    const names = ['B1', 'ext-Ğüşİöç-ıI', '🙂 emoji', 'a'.repeat(300), '', 'spaces and : colons'];
    // Every value of the digest's version and variant digits comes up among a few thousand names.
    for (let i = 0; i < 4_000; i++) names.push(`n-${i}`);
    for (const externalId of names) {
      expect(transactionIdFor('p-1', externalId)).toBe(uuidv5(`txn:p-1:${externalId}`, NAMESPACE));
      expect(configIdFor.merchant(externalId)).toBe(uuidv5(`merchant:${externalId}`, NAMESPACE));
      expect(configIdFor.operator(externalId)).toBe(uuidv5(`operator:${externalId.toLowerCase()}`, NAMESPACE));
    }
    // A known value: a change of namespace or encoding would re-key every stream.
    expect(transactionIdFor('provider', 'external')).toBe('70b75a95-acd7-55f7-96a2-a4c496adf13c');
  });
});

describe('payment tokens', () => {
  it('are 192-bit base64url, and never repeat across several blocks of the pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const token = newPaymentToken();
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(PAYMENT_TOKEN_BYTES);
      seen.add(token);
    }
    expect(seen.size).toBe(1_000);
  });
});
