import { DomainError, STREAMS, type ActorRef } from '@transfergate/contracts';
import type { PendingWrite } from '../persistence/ledger-repository.js';

/**
 * What every decision answers: the writes to append (events per stream, each at the version the
 * decision read) or a refusal. A refusal is a value, not a throw, so a spec reads it like any other
 * answer and a handler chooses what a refusal means for it (a repeat's first answer, an HTTP error).
 * A broken invariant (state the streams can never hold) still throws a plain Error.
 */
export type Decided<T> = T | DomainError;

export function isRefusal<T>(decided: Decided<T>): decided is DomainError {
  return decided instanceof DomainError;
}

/** A decided value, or the refusal thrown: for handlers whose refusal is the command's answer. */
export function orThrow<T>(decided: Decided<T>): T {
  if (decided instanceof DomainError) throw decided;
  return decided;
}

/** Who did it, as events record it. */
export function by(actor: ActorRef): { source: ActorRef['source']; operatorId?: string } {
  return { source: actor.source, ...(actor.operatorId ? { operatorId: actor.operatorId } : {}) };
}

/** The transaction stream's events, at the version the decision read (serialises every move of it). */
export function transactionWrite(transactionId: string, version: number, events: PendingWrite['events']): PendingWrite {
  return { streamId: STREAMS.transaction(transactionId), expectedVersion: version, events };
}

/**
 * Settling a transaction on its merchant's ledger: a deposit's credit, or posting or voiding the
 * withdrawal's own reservation. None of these can take a balance below its limit, and the
 * transaction stream's expected version (appended atomically with it) already serialises every move
 * of this transaction, so the merchant ledger's version is not checked: approvals of different
 * transactions of one merchant never conflict with each other. Only a reservation (a withdrawal
 * request, an amount change) checks it, because only a reservation depends on the balance.
 */
export function settlementWrite(merchantId: string, event: PendingWrite['events'][number]): PendingWrite {
  return { streamId: STREAMS.merchantLedger(merchantId), expectedVersion: 'any', events: [event] };
}

/** Kuruş as TRY with two decimals, for messages. */
export function formatKurus(kurus: string | bigint): string {
  const value = BigInt(kurus);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')} TRY`;
}
