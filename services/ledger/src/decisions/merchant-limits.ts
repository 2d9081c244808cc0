import { DomainError, kurusToDecimalString, type EventData } from '@transfergate/contracts';

type MerchantRecord = EventData<'MerchantConfigured'>;

/**
 * The refusal of an amount outside the merchant's per-transaction range (inclusive); undefined when
 * it fits. The same rule for an integrator's request and for an amount an operator sets.
 */
export function amountRangeRefusal(merchant: MerchantRecord, amountKurus: bigint): DomainError | undefined {
  const min = BigInt(merchant.minAmountKurus);
  const max = BigInt(merchant.maxAmountKurus);
  if (amountKurus >= min && amountKurus <= max) return undefined;
  return new DomainError(
    'amount_out_of_range',
    `amount must be between ${kurusToDecimalString(min)} and ${kurusToDecimalString(max)} TRY`,
    { minAmount: kurusToDecimalString(min), maxAmount: kurusToDecimalString(max) },
  );
}

/** The refusal of a new request: the merchant unknown or inactive, or the amount outside its range. */
export function merchantRefusal(merchant: MerchantRecord | undefined, amountKurus: bigint): DomainError | undefined {
  if (!merchant || !merchant.active) return new DomainError('merchant_disabled', 'merchant is not active');
  return amountRangeRefusal(merchant, amountKurus);
}
