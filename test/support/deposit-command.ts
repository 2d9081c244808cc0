import { DomainError, RequestDepositCommand, type TransactionView } from '@transfergate/contracts';
import { configIdFor } from '@transfergate/ledger';
import type { TestApp } from './test-app.js';

/** The issue bootstrap's merchant (test-app.ts) as ConfigureMerchantCommand takes it, in kuruş. */
export const BOOTSTRAP_MERCHANT = {
  name: 'Acme',
  active: true,
  minAmountKurus: 1_000n,
  maxAmountKurus: 50_000_000n,
  depositCommissionBp: 150,
  withdrawalCommissionBp: 0,
  overdraftLimitKurus: 0n,
};

/** The issue bootstrap's receiving account (test-app.ts) as ConfigureBankAccountCommand takes it, in kuruş. */
export const BOOTSTRAP_ACCOUNT = {
  bank: 'Ziraat Bankası',
  iban: 'TR330006100519786457841326',
  holderName: 'Transfer Ltd',
  fast: true,
  minAmountKurus: 100n,
  maxAmountKurus: 50_000_000n,
  dailyLimitKurus: 500_000_000n,
  active: true,
};

/** A new H2H deposit of the issue bootstrap's provider, straight to the ledger's command bus. */
export function requestDeposit(app: TestApp, amountKurus: bigint, externalId: string): Promise<TransactionView> {
  return app.commands.execute(
    new RequestDepositCommand({
      merchantId: configIdFor.merchant('Acme'),
      providerId: configIdFor.provider('acme-h2h'),
      infrastructureId: configIdFor.infrastructure('acme'),
      form: 'h2h',
      externalId,
      amountKurus,
      customer: { fullName: 'Ayşe Yılmaz' },
      requestFingerprint: `fp-${externalId}-${amountKurus}`,
      actor: { source: 'test' },
    }),
  );
}

/** The error code a command was refused with (fails the test if it was not refused by the domain). */
export async function refusalCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return (error as DomainError).errorCode;
}
