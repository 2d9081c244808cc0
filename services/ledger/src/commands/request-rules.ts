import { DomainError, STREAMS, type DomainEvent, type TransactionView } from '@transfergate/contracts';
import { evolveWithAppended, type TransactionAggregate } from '../domain/transaction.js';
import type { LedgerRepository } from '../persistence/ledger-repository.js';

/** Another request already holds this OperationGuid (the transaction it named does not exist). */
export function operationGuidReused(): DomainError {
  return new DomainError(
    'operation_guid_reused',
    'this OperationGuid was already used for another request of this provider: use a new GUID per request',
  );
}

/**
 * A repeat of an external id: the same payload gets the first answer again (Stripe-style
 * idempotency), another payload is a duplicate (409).
 */
export function replayOrDuplicate(existing: TransactionAggregate, fingerprint: string): TransactionView {
  if (existing.requestFingerprint !== fingerprint) {
    throw new DomainError('duplicate_transaction', 'a transaction with this id already exists with different data', {
      transactionId: existing.view.externalId,
    });
  }
  return { ...existing.view, replayed: true };
}

/**
 * A request the rules refused may repeat one answered before the rules (or the balance) changed:
 * it gets its first answer again (or is a duplicate); only a new request gets the refusal.
 */
export async function repeatOrRefusal(
  repository: LedgerRepository,
  transactionId: string,
  fingerprint: string,
  refusal: unknown,
): Promise<TransactionView> {
  const existing = await repository.loadTransaction(transactionId);
  if (existing) return replayOrDuplicate(existing, fingerprint);
  throw refusal;
}

/**
 * A request whose append found its external id or its OperationGuid taken: the transaction that
 * holds it answers (a repeat's first answer, or a duplicate); without one, the GUID is another
 * request's, or the id's claim cannot be read yet.
 */
export function answerClaimed(
  repository: LedgerRepository,
  transactionId: string,
  fingerprint: string,
  guidTaken: boolean,
): Promise<TransactionView> {
  const refusal = guidTaken
    ? operationGuidReused()
    : new DomainError('concurrency_conflict', 'transaction was claimed but cannot be read');
  return repeatOrRefusal(repository, transactionId, fingerprint, refusal);
}

/** The view a request answers, folded from the event just appended (no read-back round trip). */
export function viewAfterRequest(event: DomainEvent): TransactionView {
  const data = event.data as { transactionId: string };
  return evolveWithAppended(undefined, STREAMS.transaction(data.transactionId), [event]).view;
}
