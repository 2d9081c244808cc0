import { ACCOUNTS, DomainError, EVENT_CATALOG, type Transfer } from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';

/**
 * One merchant's balance (a liability: credits raise it), folded from its ledger stream.
 * Available = posted credits − posted debits − pending debits; it may not go below −overdraft.
 */
export interface MerchantLedger {
  merchantId: string;
  version: number;
  creditsPostedKurus: bigint;
  debitsPostedKurus: bigint;
  debitsPendingKurus: bigint;
  /** Open reservations by transaction id (what the fold holds: it grows with open withdrawals only). */
  reservations: Map<string, Transfer[]>;
}

export function emptyLedger(merchantId: string): MerchantLedger {
  return {
    merchantId,
    version: 0,
    creditsPostedKurus: 0n,
    debitsPostedKurus: 0n,
    debitsPendingKurus: 0n,
    reservations: new Map(),
  };
}

/**
 * What a command decides from: the balance at one version of the ledger stream and, when it asked
 * about one transaction, that transaction's open reservation. A copy: later folds do not move it.
 */
export interface MerchantBalance {
  merchantId: string;
  version: number;
  creditsPostedKurus: bigint;
  debitsPostedKurus: bigint;
  debitsPendingKurus: bigint;
  /** The open reservation of the transaction the load was asked about; undefined when none is open. */
  reservation?: Transfer[];
}

/** The balance a fold holds now, and the open reservation of `transactionId` if one was asked about. */
export function balanceOf(ledger: MerchantLedger, transactionId?: string): MerchantBalance {
  const reservation = transactionId === undefined ? undefined : ledger.reservations.get(transactionId);
  return {
    merchantId: ledger.merchantId,
    version: ledger.version,
    creditsPostedKurus: ledger.creditsPostedKurus,
    debitsPostedKurus: ledger.debitsPostedKurus,
    debitsPendingKurus: ledger.debitsPendingKurus,
    ...(reservation ? { reservation: reservation.map((transfer) => ({ ...transfer })) } : {}),
  };
}

type Balances = Pick<MerchantLedger, 'creditsPostedKurus' | 'debitsPostedKurus' | 'debitsPendingKurus'>;

export function availableKurus(ledger: Balances): bigint {
  return ledger.creditsPostedKurus - ledger.debitsPostedKurus - ledger.debitsPendingKurus;
}

function sides(account: string, transfers: Transfer[]): { debits: bigint; credits: bigint } {
  let debits = 0n;
  let credits = 0n;
  for (const t of transfers) {
    if (t.debitAccount === account) debits += BigInt(t.amountKurus);
    if (t.creditAccount === account) credits += BigInt(t.amountKurus);
  }
  return { debits, credits };
}

/** The merchant ledger stream's evolve: one event folded into the ledger (changing it). */
export function evolveMerchantLedger(ledger: MerchantLedger, event: RecordedEvent): MerchantLedger {
  return foldMoreEvents(ledger, [event]);
}

export function foldMerchantLedger(merchantId: string, events: readonly RecordedEvent[]): MerchantLedger {
  return foldMoreEvents(emptyLedger(merchantId), events);
}

/**
 * Folds the events that follow `ledger.version` into it (changing it): the ledger of the stream up
 * to their last. A stream's events never change, so a fold of its first versions stays true and
 * only what follows needs reading (MerchantLedgerFolds). An event it cannot apply throws before
 * changing anything of that event: the fold stays the ledger at the event before.
 */
export function foldMoreEvents(ledger: MerchantLedger, events: readonly RecordedEvent[]): MerchantLedger {
  const account = ACCOUNTS.merchant(ledger.merchantId);
  for (const event of events) {
    if (event.streamVersion !== ledger.version + 1) {
      throw new Error(`merchant ledger ${ledger.merchantId}: version ${event.streamVersion} after ${ledger.version}`);
    }
    switch (event.type) {
      case 'TransfersPosted': {
        const d = EVENT_CATALOG.TransfersPosted.schema.parse(event.data);
        const s = sides(account, d.transfers);
        ledger.creditsPostedKurus += s.credits;
        ledger.debitsPostedKurus += s.debits;
        break;
      }
      case 'TransfersReserved':
      case 'ReservationChanged': {
        const d = EVENT_CATALOG.TransfersReserved.schema.parse(event.data);
        const previous = ledger.reservations.get(d.transactionId);
        const releasedKurus = previous ? sides(account, previous).debits : 0n;
        const reservedKurus = sides(account, d.transfers).debits;
        ledger.reservations.set(d.transactionId, d.transfers);
        ledger.debitsPendingKurus += reservedKurus - releasedKurus;
        break;
      }
      case 'ReservationPosted': {
        const d = EVENT_CATALOG.ReservationPosted.schema.parse(event.data);
        const reserved = ledger.reservations.get(d.transactionId);
        if (!reserved) throw new Error(`posting without reservation for ${d.transactionId}`);
        const releasedKurus = sides(account, reserved).debits;
        const s = sides(account, d.transfers);
        ledger.debitsPendingKurus -= releasedKurus;
        ledger.reservations.delete(d.transactionId);
        ledger.debitsPostedKurus += s.debits;
        ledger.creditsPostedKurus += s.credits;
        break;
      }
      case 'ReservationVoided': {
        const d = EVENT_CATALOG.ReservationVoided.schema.parse(event.data);
        const reserved = ledger.reservations.get(d.transactionId);
        if (!reserved) throw new Error(`void without reservation for ${d.transactionId}`);
        ledger.debitsPendingKurus -= sides(account, reserved).debits;
        ledger.reservations.delete(d.transactionId);
        break;
      }
      default:
        throw new Error(`unknown merchant ledger event ${event.type}`);
    }
    ledger.version = event.streamVersion;
  }
  return ledger;
}

/**
 * The refusal of a new pending debit that would take the merchant below its overdraft limit;
 * undefined when it fits.
 */
export function reserveRefusal(
  ledger: Balances,
  extraDebitKurus: bigint,
  overdraftLimitKurus: bigint,
): DomainError | undefined {
  const after = availableKurus(ledger) - extraDebitKurus;
  if (after >= -overdraftLimitKurus) return undefined;
  return new DomainError('insufficient_balance', 'merchant balance does not cover the amount and fee', {
    availableKurus: availableKurus(ledger).toString(),
    requiredKurus: extraDebitKurus.toString(),
    overdraftLimitKurus: overdraftLimitKurus.toString(),
  });
}

/** Refuses a new pending debit that would take the merchant below its overdraft limit. */
export function assertCanReserve(ledger: Balances, extraDebitKurus: bigint, overdraftLimitKurus: bigint): void {
  const refusal = reserveRefusal(ledger, extraDebitKurus, overdraftLimitKurus);
  if (refusal) throw refusal;
}

/** Transfers of a withdrawal: amount to payout clearing, fee to fee revenue, both from the merchant. */
export function withdrawalTransfers(
  transactionId: string,
  merchantId: string,
  amountKurus: bigint,
  feeKurus: bigint,
  generation = 0,
): Transfer[] {
  const suffix = generation === 0 ? '' : `:${generation}`;
  const transfers: Transfer[] = [
    {
      transferId: `${transactionId}:payout${suffix}`,
      debitAccount: ACCOUNTS.merchant(merchantId),
      creditAccount: ACCOUNTS.payoutClearing,
      amountKurus: amountKurus.toString(),
    },
  ];
  if (feeKurus > 0n) {
    transfers.push({
      transferId: `${transactionId}:fee${suffix}`,
      debitAccount: ACCOUNTS.merchant(merchantId),
      creditAccount: ACCOUNTS.fees,
      amountKurus: feeKurus.toString(),
    });
  }
  return transfers;
}

/** Transfers of an approved deposit: from the receiving bank account to the merchant, less commission. */
export function depositTransfers(
  transactionId: string,
  merchantId: string,
  bankAccountId: string,
  amountKurus: bigint,
  commissionKurus: bigint,
): Transfer[] {
  const transfers: Transfer[] = [
    {
      transferId: `${transactionId}:deposit`,
      debitAccount: ACCOUNTS.bank(bankAccountId),
      creditAccount: ACCOUNTS.merchant(merchantId),
      amountKurus: (amountKurus - commissionKurus).toString(),
    },
  ];
  if (commissionKurus > 0n) {
    transfers.push({
      transferId: `${transactionId}:commission`,
      debitAccount: ACCOUNTS.bank(bankAccountId),
      creditAccount: ACCOUNTS.fees,
      amountKurus: commissionKurus.toString(),
    });
  }
  return transfers;
}
