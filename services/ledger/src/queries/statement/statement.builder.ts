import {
  ACCOUNTS,
  DomainError,
  EVENT_CATALOG,
  MAX_STATEMENT_ENTRIES,
  type MerchantStatement,
  type StatementBalance,
  type StatementEntry,
  type StatementEntryType,
  type StatementPhase,
  type StatementRange,
  type Transfer,
} from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';
import { foldMerchantLedger } from '../../domain/merchant-ledger.js';

/** What a statement entry names of its transaction, from the transaction stream's first event. */
export interface StatementTransactionInfo {
  number: number;
  externalId: string;
  type: 'deposit' | 'withdrawal';
}

export interface StatementInput {
  merchantId: string;
  merchantName: string;
  range: StatementRange;
  /** The merchant's ledger stream, in version order (events after `range.to` are ignored). */
  ledgerEvents: readonly RecordedEvent[];
  transactions: ReadonlyMap<string, StatementTransactionInfo>;
}

/**
 * Ledger time of each event: its recorded time, but never earlier than the event before it in the
 * stream. `created_at` is the writing transaction's start, and writers of one stream queue on a lock,
 * so a writer that started earlier can commit a later version; the running maximum keeps time and
 * stream order the same, which makes "as of a moment" a prefix of the stream.
 */
export function ledgerTimes(events: readonly RecordedEvent[]): number[] {
  const times: number[] = [];
  let latestMs = 0;
  for (const event of events) {
    const recordedMs = Date.parse(event.createdAt);
    if (!Number.isFinite(recordedMs)) throw new Error(`event ${event.eventId} has no valid time`);
    latestMs = Math.max(latestMs, recordedMs);
    times.push(latestMs);
  }
  return times;
}

/** How many events of the stream happened before `instantIso` (the ledger's state as of then). */
export function versionAsOf(events: readonly RecordedEvent[], instantIso: string): number {
  const instantMs = Date.parse(instantIso);
  const times = ledgerTimes(events);
  let count = 0;
  while (count < times.length && times[count]! < instantMs) count++;
  return count;
}

function entryType(account: string, transfer: Transfer): StatementEntryType {
  if (transfer.creditAccount === account && transfer.debitAccount.startsWith('bank:')) return 'deposit';
  if (transfer.debitAccount === account && transfer.creditAccount === ACCOUNTS.payoutClearing) return 'withdrawal';
  if (transfer.debitAccount === account && transfer.creditAccount === ACCOUNTS.fees) return 'fee';
  return 'other';
}

/**
 * Folds the merchant's ledger stream into a statement: the balance before `from`, each transfer
 * that touches the merchant's account in [from, to) as one entry with the running balances, and
 * the balance before `to`. Pure: the same events give the same statement, byte for byte.
 */
export function buildMerchantStatement(input: StatementInput): MerchantStatement {
  const { merchantId, range, ledgerEvents } = input;
  const account = ACCOUNTS.merchant(merchantId);
  const openingVersion = versionAsOf(ledgerEvents, range.from);
  const closingVersion = versionAsOf(ledgerEvents, range.to);
  const times = ledgerTimes(ledgerEvents);

  let bookedKurus = 0n;
  let heldKurus = 0n;
  const reservations = new Map<string, Transfer[]>();
  const entries: StatementEntry[] = [];
  const totals = { postedDebits: 0n, postedCredits: 0n, held: 0n, released: 0n, commission: 0n };
  let opening: StatementBalance | null = null;
  const balance = (): StatementBalance => ({
    bookedKurus: bookedKurus.toString(),
    heldKurus: heldKurus.toString(),
    availableKurus: (bookedKurus - heldKurus).toString(),
  });

  for (let index = 0; index < closingVersion; index++) {
    const event = ledgerEvents[index]!;
    if (index === openingVersion) opening = balance();
    const inRange = index >= openingVersion;
    // Every ledger event names its transaction and merchant (ReservationVoided's shape is the common part).
    const { transactionId, merchantId: eventMerchantId } = EVENT_CATALOG.ReservationVoided.schema.parse(event.data);
    if (eventMerchantId !== merchantId)
      throw new Error(`event ${event.eventId} belongs to merchant ${eventMerchantId}`);
    const emit = (transfer: Transfer, phase: StatementPhase, commissionKurus = 0n) => {
      if (!inRange) return;
      if (entries.length >= MAX_STATEMENT_ENTRIES) {
        throw new DomainError(
          'validation_failed',
          `invalid request: the range has more than ${MAX_STATEMENT_ENTRIES} ledger entries; ask for it in parts`,
        );
      }
      const amount = BigInt(transfer.amountKurus);
      const isDebit = transfer.debitAccount === account;
      if (phase === 'posted') {
        if (isDebit) totals.postedDebits += amount;
        else totals.postedCredits += amount;
      } else if (phase === 'pending') totals.held += amount;
      else totals.released += amount;
      totals.commission += commissionKurus;
      const info = input.transactions.get(transactionId);
      entries.push({
        at: new Date(times[index]!).toISOString(),
        ledgerVersion: event.streamVersion,
        transactionId,
        transactionNumber: info?.number ?? null,
        externalId: info?.externalId ?? null,
        transactionType: info?.type ?? null,
        transferId: transfer.transferId,
        type: entryType(account, transfer),
        phase,
        debitKurus: isDebit ? amount.toString() : '0',
        creditKurus: isDebit ? '0' : amount.toString(),
        commissionKurus: commissionKurus.toString(),
        bookedBalanceKurus: bookedKurus.toString(),
        availableBalanceKurus: (bookedKurus - heldKurus).toString(),
      });
    };
    const touchesMerchant = (t: Transfer) => t.debitAccount === account || t.creditAccount === account;
    const release = (transfers: Transfer[]) => {
      for (const t of transfers.filter(touchesMerchant)) {
        heldKurus -= BigInt(t.amountKurus);
        emit(t, 'voided');
      }
    };

    switch (event.type) {
      case 'TransfersPosted': {
        const d = EVENT_CATALOG.TransfersPosted.schema.parse(event.data);
        for (const t of d.transfers.filter(touchesMerchant)) {
          const signed = t.creditAccount === account ? BigInt(t.amountKurus) : -BigInt(t.amountKurus);
          bookedKurus += signed;
          // The commission of a deposit goes bank → fees beside the merchant's credit, from the same account.
          const commission = d.transfers
            .filter((c) => c.creditAccount === ACCOUNTS.fees && c.debitAccount === t.debitAccount && c !== t)
            .reduce((sum, c) => sum + BigInt(c.amountKurus), 0n);
          emit(t, 'posted', t.creditAccount === account ? commission : 0n);
        }
        break;
      }
      case 'TransfersReserved':
      case 'ReservationChanged': {
        const d = EVENT_CATALOG.TransfersReserved.schema.parse(event.data);
        const previous = reservations.get(d.transactionId);
        if (previous) release(previous);
        for (const t of d.transfers.filter(touchesMerchant)) {
          heldKurus += BigInt(t.amountKurus);
          emit(t, 'pending');
        }
        reservations.set(d.transactionId, d.transfers);
        break;
      }
      case 'ReservationPosted': {
        const d = EVENT_CATALOG.ReservationPosted.schema.parse(event.data);
        const reserved = reservations.get(d.transactionId);
        if (!reserved) throw new Error(`posting without reservation for ${d.transactionId}`);
        const postedIds = new Set(d.transfers.map((t) => t.transferId));
        for (const t of d.transfers.filter(touchesMerchant)) {
          const hold = reserved.find((r) => r.transferId === t.transferId);
          if (hold && touchesMerchant(hold)) heldKurus -= BigInt(hold.amountKurus);
          bookedKurus += t.creditAccount === account ? BigInt(t.amountKurus) : -BigInt(t.amountKurus);
          emit(t, 'posted');
        }
        // A reserved transfer the posting did not include is released, not silently dropped.
        release(reserved.filter((r) => !postedIds.has(r.transferId)));
        reservations.delete(d.transactionId);
        break;
      }
      case 'ReservationVoided': {
        const d = EVENT_CATALOG.ReservationVoided.schema.parse(event.data);
        const reserved = reservations.get(d.transactionId);
        if (!reserved) throw new Error(`void without reservation for ${d.transactionId}`);
        release(reserved);
        reservations.delete(d.transactionId);
        break;
      }
      default:
        throw new Error(`unknown merchant ledger event ${event.type}`);
    }
  }
  opening ??= balance();
  const closing = balance();

  // The statement's own fold must agree with the domain's (the one that decides reservations).
  const domain = foldMerchantLedger(merchantId, ledgerEvents.slice(0, closingVersion) as RecordedEvent[]);
  if (domain.creditsPostedKurus - domain.debitsPostedKurus !== bookedKurus || domain.debitsPendingKurus !== heldKurus) {
    throw new Error(`statement fold of merchant ${merchantId} disagrees with the ledger fold`);
  }

  return {
    merchantId,
    merchantName: input.merchantName,
    from: range.from,
    to: range.to,
    openingLedgerVersion: openingVersion,
    closingLedgerVersion: closingVersion,
    opening,
    closing,
    totals: {
      postedDebitsKurus: totals.postedDebits.toString(),
      postedCreditsKurus: totals.postedCredits.toString(),
      heldKurus: totals.held.toString(),
      releasedKurus: totals.released.toString(),
      commissionKurus: totals.commission.toString(),
    },
    entries,
  };
}
