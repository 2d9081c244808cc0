import type { z } from 'zod';

/**
 * Validation problems in words a person wrote: `is required`, `must be a number`, `must not be empty`,
 * instead of zod's `Invalid input: expected string, received undefined`. Used as the per-parse error
 * map of parseBody, so a message a schema sets itself (`.refine(…, 'has more than 2 decimals')`) still
 * wins; answering undefined falls back to zod's own text.
 */
export function issueInWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.input === null) return `must be ${article(kindOf(issue.expected))}, not null`;
      return `must be ${article(kindOf(issue.expected))}`;
    case 'too_small':
      return tooSmall(issue.origin, issue.minimum, issue.inclusive !== false);
    case 'too_big':
      return tooBig(issue.origin, issue.maximum, issue.inclusive !== false);
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected format' : `must be a valid ${formatName(issue.format)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `has unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return issue.input === undefined ? 'is required' : 'is not any of the accepted shapes';
    default:
      return undefined;
  }
}

function kindOf(expected: string): string {
  switch (expected) {
    case 'int':
      return 'whole number';
    case 'bigint':
      return 'whole number';
    case 'object':
      return 'JSON object';
    case 'array':
      return 'list';
    case 'boolean':
      return 'boolean (true or false)';
    default:
      return expected;
  }
}

function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

function formatName(format: string): string {
  const names: Record<string, string> = {
    email: 'e-mail address',
    url: 'URL',
    uuid: 'UUID',
    guid: 'GUID',
    datetime: 'ISO 8601 date-time',
    date: 'ISO 8601 date',
    ipv4: 'IPv4 address',
    ipv6: 'IPv6 address',
    cidrv4: 'IPv4 CIDR range',
    cidrv6: 'IPv6 CIDR range',
  };
  return names[format] ?? format;
}

function tooSmall(origin: string, minimum: number | bigint, inclusive: boolean): string | undefined {
  const n = String(minimum);
  switch (origin) {
    case 'string':
      if (Number(minimum) === 1 && inclusive) return 'must not be empty';
      return `must be at least ${n} characters long`;
    case 'array':
    case 'set':
      if (Number(minimum) === 1 && inclusive) return 'must not be empty';
      return `must have at least ${n} items`;
    case 'number':
    case 'int':
    case 'bigint':
      return inclusive ? `must be at least ${n}` : `must be greater than ${n}`;
    default:
      return undefined;
  }
}

function tooBig(origin: string, maximum: number | bigint, inclusive: boolean): string | undefined {
  const n = String(maximum);
  switch (origin) {
    case 'string':
      return `must be at most ${n} characters long`;
    case 'array':
    case 'set':
      return `must have at most ${n} items`;
    case 'number':
    case 'int':
    case 'bigint':
      return inclusive ? `must be at most ${n}` : `must be less than ${n}`;
    default:
      return undefined;
  }
}
