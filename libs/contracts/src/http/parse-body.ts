import { DomainError } from '../errors/domain-error.js';
import type { z } from 'zod';
import { issueInWords } from './issue-words.js';

/** Parses a request body with its contract schema; a failure names every bad field (400). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new DomainError('validation_failed', 'request body must be a JSON object');
  }
  // A parse given an error map costs more (measured: 3.6 instead of 2.0 µs for an H2H
  // deposit), so a body is parsed plainly first and only a refused one again with our words for
  // zod's generic issues (a message the schema sets itself still wins).
  const plain = schema.safeParse(body);
  if (plain.success) return plain.data;
  const result = schema.safeParse(body, { error: issueInWords });
  if (!result.success) {
    const fields = result.error.issues.map((issue) => {
      const field = issue.path.join('.') || '(body)';
      return { field, problem: withoutFieldName(issue.path, issue.message) };
    });
    const amountIssue = fields.find((f) => f.field === 'amount' || f.field === 'Amount');
    throw new DomainError(
      amountIssue && fields.length === 1 ? 'invalid_amount' : 'validation_failed',
      `invalid request: ${fields.map((f) => `${f.field} ${f.problem}`).join('; ')}`,
      { fields },
    );
  }
  return result.data;
}

/**
 * The message names the field first (`amount is not a number`), so a problem that starts with the
 * field's name itself (a schema's own words, `iban: bad checksum`) would read twice: that name goes.
 */
function withoutFieldName(path: readonly PropertyKey[], problem: string): string {
  const last = path.at(-1);
  if (typeof last !== 'string' || last === '') return problem;
  for (const prefix of [`${last}: `, `${last} `]) {
    if (problem.toLowerCase().startsWith(prefix.toLowerCase()) && problem.length > prefix.length) {
      return problem.slice(prefix.length);
    }
  }
  return problem;
}
