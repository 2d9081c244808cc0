import type { RequestDepositCommand, RequestWithdrawalCommand } from '@transfergate/contracts';

/** The origin fields both request events carry, from the command input. */
export function originOf(
  input: RequestDepositCommand['input'] | RequestWithdrawalCommand['input'],
  transactionId: string,
  number: number,
) {
  return {
    transactionId,
    number,
    merchantId: input.merchantId,
    providerId: input.providerId,
    infrastructureId: input.infrastructureId,
    form: input.form,
    externalId: input.externalId,
    requestFingerprint: input.requestFingerprint,
    ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
    ...(input.returnUrl ? { returnUrl: input.returnUrl } : {}),
    echo: input.echo ?? {},
    amountKurus: input.amountKurus.toString(),
    customer: input.customer,
  };
}
