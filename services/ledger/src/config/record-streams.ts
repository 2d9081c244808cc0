import { DomainError, STREAMS, type ActorRef } from '@transfergate/contracts';
import { WrongExpectedVersionError, type PostgresEventStore, type RecordedEvent } from '@transfergate/event-store';
import { isRefusal, type Decided } from '../decisions/decision.js';
import { evolveMerchant, evolveOperator, evolveProvider, type RecordDecision } from '../decisions/record-state.js';
import type { LedgerRepository } from '../persistence/ledger-repository.js';

/**
 * Back-office changes to merchants, providers and operators that the whole-record Configure*
 * commands cannot express without the panel resending secrets. Each handler reads the record's own
 * stream (never a read model, so it cannot overwrite a change not projected yet), decides with a
 * pure function (decisions/*.decide.ts), and appends at the version it read; a lost race is loaded
 * and decided again a few times, then answered 409.
 *
 * Deletion of merchants and providers is soft: a MerchantDeleted / ProviderDeleted event carries the
 * whole record deactivated and marked `deleted`. The gateway then refuses the merchant's providers
 * (merchant_disabled) or the provider (provider_disabled) exactly as for a disabled record, balances
 * and transactions stay intact, and the stream keeps the history. Lists leave deleted records out
 * unless `?includeDeleted=true`. Saving a deleted provider restores it; a deleted merchant is
 * restored by SetMerchantActiveCommand with `restore` (the panel's save does that).
 */
export const MAX_RECORD_ATTEMPTS = 4;

/** Load, decide, append; on a lost race load and decide again (bounded). No writes: the result as is. */
export async function loadDecideAppend<R>(
  repository: LedgerRepository,
  actor: ActorRef,
  loadAndDecide: () => Promise<Decided<RecordDecision<R>>>,
): Promise<R> {
  for (let attempt = 1; attempt <= MAX_RECORD_ATTEMPTS; attempt++) {
    const decided = await loadAndDecide();
    if (isRefusal(decided)) throw decided;
    const { writes, result } = decided;
    if (writes.length === 0) return result;
    try {
      await repository.append(writes, actor);
      return result;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }
  throw new DomainError('concurrency_conflict', 'the record is changing at the same time; reload and retry');
}

async function lastEventOf(store: PostgresEventStore, streamId: string): Promise<RecordedEvent | undefined> {
  const events = await store.readStream(streamId);
  return events[events.length - 1];
}

/**
 * Every event of a record stream carries the whole record, so folding the stream with its evolve
 * gives the state of its last event: only that one is folded.
 */
export async function loadMerchant(store: PostgresEventStore, merchantId: string) {
  const last = await lastEventOf(store, STREAMS.merchant(merchantId));
  return last ? evolveMerchant(undefined, last) : undefined;
}

export async function loadProvider(store: PostgresEventStore, providerId: string) {
  const last = await lastEventOf(store, STREAMS.provider(providerId));
  return last ? evolveProvider(undefined, last) : undefined;
}

export async function loadOperator(store: PostgresEventStore, operatorId: string) {
  const last = await lastEventOf(store, STREAMS.operator(operatorId));
  return last ? evolveOperator(undefined, last) : undefined;
}

export async function infrastructureExists(store: PostgresEventStore, infrastructureId: string): Promise<boolean> {
  return (await lastEventOf(store, STREAMS.infrastructure(infrastructureId))) !== undefined;
}
