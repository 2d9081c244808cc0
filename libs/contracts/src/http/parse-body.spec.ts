import { z } from 'zod';
import { DomainError } from '../errors/domain-error.js';
import { H2hDepositRequestSchema, MerchantDepositRequestSchema } from './index.js';
import { parseBody } from './parse-body.js';

function problemOf(schema: Parameters<typeof parseBody>[0], body: unknown): DomainError {
  try {
    parseBody(schema, body);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('parsed without a problem');
}

const h2h = {
  apikey: 'ak',
  transaction_id: 'T-1',
  hash: 'abc',
  amount: 100,
  fullname: 'Ali Veli',
};

describe('parseBody: problems in words a person wrote', () => {
  it('a missing field is "is required", a wrong type names the type, an empty text "must not be empty"', () => {
    const missing = problemOf(H2hDepositRequestSchema, { ...h2h, transaction_id: undefined });
    expect(missing.errorCode).toBe('validation_failed');
    expect(missing.message).toBe('invalid request: transaction_id is required');
    expect(missing.details).toEqual({ fields: [{ field: 'transaction_id', problem: 'is required' }] });

    const wrongType = problemOf(H2hDepositRequestSchema, { ...h2h, apikey: 42 });
    expect(wrongType.message).toBe('invalid request: apikey must be a string');
    const empty = problemOf(H2hDepositRequestSchema, { ...h2h, fullname: '' });
    expect(empty.message).toBe('invalid request: fullname must not be empty');
    const nulled = problemOf(H2hDepositRequestSchema, { ...h2h, hash: null });
    expect(nulled.message).toBe('invalid request: hash must be a string, not null');
  });

  it("never zod's generic wording, for every field of two forms left out at once", () => {
    for (const [schema, body] of [
      [H2hDepositRequestSchema, {}],
      [MerchantDepositRequestSchema, {}],
    ] as const) {
      const problem = problemOf(schema, body);
      expect(problem.message).not.toMatch(/Invalid input|expected \w+, received|Too small|Too big/);
      expect(problem.message).toContain('amount is required');
      for (const field of (problem.details as { fields: Array<{ problem: string }> }).fields) {
        expect(field.problem).not.toMatch(/Invalid|expected|received/);
      }
    }
  });

  it('names a field once: an amount that is no number, or a message that repeats the field, reads as one sentence', () => {
    for (const [schema, body] of [
      [H2hDepositRequestSchema, { ...h2h, amount: 'abc' }],
      [MerchantDepositRequestSchema, { transactionId: 'T-1', amount: 'abc', username: 'u' }],
    ] as const) {
      const problem = problemOf(schema, body);
      expect([problem.errorCode, problem.message]).toEqual([
        'invalid_amount',
        'invalid request: amount is not a number',
      ]);
    }
    const own = z.object({ iban: z.string().refine(() => false, 'iban: checksum does not match') });
    expect(problemOf(own, { iban: 'TR00' }).message).toBe('invalid request: iban checksum does not match');
    // A word that only begins like the field stays.
    const word = z.object({ iban: z.string().refine(() => false, 'ibans must be Turkish') });
    expect(problemOf(word, { iban: 'TR00' }).message).toBe('invalid request: iban ibans must be Turkish');
  });

  it("a schema's own message is kept, and the amount keeps its errorCode", () => {
    const decimals = problemOf(H2hDepositRequestSchema, { ...h2h, amount: '1.234' });
    expect(decimals.errorCode).toBe('invalid_amount');
    expect(decimals.message).toMatch(/^invalid request: amount /);
    expect(decimals.message).not.toMatch(/Invalid input/);
  });
});
