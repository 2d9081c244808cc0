import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { ParsedLine } from './parsers/index.js';

/** Namespace of statement line ids (v5 of account + identity): the same line always has the same id. */
const LINE_NAMESPACE = 'd3c1a7e2-5b7f-4f0e-8a61-3c2b9e4f7a10';

export interface IdentifiedLine {
  line: ParsedLine;
  lineId: string;
  identity: string;
}

/**
 * A line's identity across files: the bank's reference when it has one, else a hash of its fields
 * plus its occurrence among identical lines of the file (two equal transfers on one day are two
 * lines; the same day exported again gives the same two ids). Returns the distinct lines and the
 * references that name two different lines (the file is then refused: one of them is not what the
 * bank booked).
 */
export function identifyLines(
  bankAccountId: string,
  lines: readonly ParsedLine[],
): { lines: IdentifiedLine[]; repeatedInFile: number; conflictingReferences: string[] } {
  const out: IdentifiedLine[] = [];
  const byReference = new Map<string, string>();
  const occurrences = new Map<string, number>();
  const conflicting = new Set<string>();
  let repeated = 0;
  for (const line of lines) {
    const fields = fingerprint(line);
    let identity: string;
    if (line.bankReference) {
      identity = `ref:${line.bankReference}`;
      const seen = byReference.get(line.bankReference);
      if (seen !== undefined) {
        if (seen !== fields) conflicting.add(line.bankReference);
        repeated += 1;
        continue;
      }
      byReference.set(line.bankReference, fields);
    } else {
      const n = (occurrences.get(fields) ?? 0) + 1;
      occurrences.set(fields, n);
      identity = `hash:${createHash('sha256').update(fields).digest('hex')}#${n}`;
    }
    out.push({ line, identity, lineId: uuidv5(`${bankAccountId}\n${identity}`, LINE_NAMESPACE) });
  }
  return { lines: out, repeatedInFile: repeated, conflictingReferences: [...conflicting] };
}

function fingerprint(l: ParsedLine): string {
  return JSON.stringify([
    l.bookedOn,
    l.bookedAt ?? '',
    l.direction,
    l.amountKurus.toString(),
    l.description.replace(/\s+/g, ' ').trim(),
    l.counterpartyName ?? '',
    l.counterpartyIban ?? '',
  ]);
}
