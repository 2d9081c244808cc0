import { parseBootstrap } from '@transfergate/all-in-one';
import { KEYS } from '../gateway/conformance-fixture.js';

export const ADMIN = { username: 'risk-admin', password: 'S3cure-pass!risk' };
export const CLERK = { username: 'risk-clerk', password: 'S3cure-pass!clerk' };

const infra = (slug: string, apiForm: string) => ({
  name: `Risk ${slug}`,
  slug,
  apiForm,
  callbackFormat: apiForm,
  callback_deposit: `http://127.0.0.1:9999/${slug}/deposit`,
  callback_withdrawal: `http://127.0.0.1:9999/${slug}/withdrawal`,
});

/** One merchant with a provider per gateway form (a generous overdraft for withdrawals), an admin and an operator. */
export function riskBootstrap() {
  return parseBootstrap(
    {
      operators: [
        { ...ADMIN, role: 'admin' },
        { ...CLERK, role: 'operator' },
      ],
      infrastructures: [
        infra('risk-merchant', 'merchant'),
        infra('risk-h2h', 'h2h'),
        infra('risk-infra', 'infrastructure'),
      ],
      merchants: [
        {
          name: 'Risky',
          minAmount: 10,
          maxAmount: 1000000,
          overdraftLimit: 100000000,
          providers: [
            { name: 'risk-merchant', infrastructure: 'risk-merchant', ...KEYS.merchant },
            { name: 'risk-h2h', infrastructure: 'risk-h2h', ...KEYS.h2h },
            { name: 'risk-infra', infrastructure: 'risk-infra', ...KEYS.infra },
          ],
        },
      ],
      bankAccounts: [
        {
          bank: 'Ziraat Bankası',
          iban: 'TR330006100519786457841326',
          holderName: 'Transfer Ltd',
          minAmount: 1,
          maxAmount: 500000,
          dailyLimit: 100000000,
        },
      ],
    },
    'risk',
  );
}
