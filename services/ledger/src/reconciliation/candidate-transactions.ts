import type { CandidateTransaction, StatementLineView } from '@transfergate/contracts';
import type { SqlDatabase } from '@transfergate/event-store';

/**
 * Adds to each candidate of the lines the transaction as it stands now (customer, amount, state),
 * read in one query for the whole page (at most a page of lines × 5 candidates).
 */
export async function withCandidateTransactions<T extends StatementLineView>(
  db: SqlDatabase,
  lines: T[],
): Promise<T[]> {
  const ids = [...new Set(lines.flatMap((line) => line.candidates.map((c) => c.transactionId)))];
  if (ids.length === 0) return lines;
  const { rows } = await db.query<{ id: string; customer_name: string | null; amount: string; state: string }>(
    `select transaction_id::text as id, customer->>'fullName' as customer_name, amount_kurus::text as amount, state
     from rm_transactions where transaction_id in (select (jsonb_array_elements_text($1::jsonb))::uuid)`,
    [JSON.stringify(ids)],
  );
  const found = new Map<string, CandidateTransaction>(
    rows.map((r) => [r.id, { customerName: r.customer_name ?? '', amountKurus: r.amount, state: r.state }]),
  );
  return lines.map((line) => ({
    ...line,
    candidates: line.candidates.map((c) => {
      const transaction = found.get(c.transactionId);
      return transaction ? { ...c, transaction } : c;
    }),
  }));
}
