import { DEMO_CREDENTIALS } from '@transfergate/contracts';

/** Where the demo's callbacks go (a receiver on this machine): allowed with --demo unless configured. */
export const DEMO_CALLBACK_ALLOWED_TARGETS: readonly string[] = ['127.0.0.1/32'];

/** The demo's callback receiver: every demo callback URL points under this base. */
export const DEMO_CALLBACK_BASE = 'http://127.0.0.1:9999/callbacks';

/**
 * The built-in --demo file: one infrastructure and provider per API form, two receiving accounts.
 * Every demo provider is a sandbox provider: the integrator trying the demo decides its own
 * transactions through /sandbox and sees each form's callbacks without an operator (its keys are
 * published anyway). Declared in the file, so every --demo start declares it again. The credentials
 * are the contract's DEMO_CREDENTIALS: the /docs examples are signed with them.
 */
export const DEMO_BOOTSTRAP = {
  infrastructures: [
    {
      name: 'Demo Merchant API',
      slug: 'demo-merchant',
      apiForm: 'merchant',
      callbackFormat: 'merchant',
      callback_deposit: `${DEMO_CALLBACK_BASE}/merchant/deposit`,
      callback_withdrawal: `${DEMO_CALLBACK_BASE}/merchant/withdrawal`,
    },
    {
      name: 'Demo H2H',
      slug: 'demo-h2h',
      apiForm: 'h2h',
      callbackFormat: 'h2h',
      callback_deposit: `${DEMO_CALLBACK_BASE}/h2h/deposit`,
      callback_withdrawal: `${DEMO_CALLBACK_BASE}/h2h/withdrawal`,
    },
    {
      name: 'Demo Infrastructure',
      slug: 'demo-infra',
      apiForm: 'infrastructure',
      callbackFormat: 'infrastructure',
      callback_deposit: `${DEMO_CALLBACK_BASE}/infra/deposit`,
      callback_withdrawal: `${DEMO_CALLBACK_BASE}/infra/withdrawal`,
    },
  ],
  merchants: [
    {
      name: 'Demo Merchant',
      minAmount: 10,
      maxAmount: 500000,
      depositCommissionPercent: 1.5,
      withdrawalCommissionPercent: 1,
      // Demo only: lets withdrawals be tried before any deposit has been approved.
      overdraftLimit: 100000,
      providers: [
        {
          name: 'demo-merchant-api',
          infrastructure: 'demo-merchant',
          ...DEMO_CREDENTIALS.merchant,
          sandbox: true,
        },
        {
          name: 'demo-h2h',
          infrastructure: 'demo-h2h',
          ...DEMO_CREDENTIALS.h2h,
          sandbox: true,
        },
        {
          name: 'demo-infrastructure',
          infrastructure: 'demo-infra',
          ...DEMO_CREDENTIALS.infrastructure,
          sandbox: true,
        },
      ],
    },
  ],
  bankAccounts: [
    {
      bank: 'Ziraat Bankası',
      iban: 'TR330006100519786457841326',
      holderName: 'Demo Ödeme Ltd',
      fast: true,
      minAmount: 1,
      maxAmount: 500000,
      dailyLimit: 5000000,
    },
    {
      bank: 'Garanti BBVA',
      iban: 'TR930006200000000006295317',
      holderName: 'Demo Ödeme Ltd',
      fast: true,
      minAmount: 1,
      maxAmount: 250000,
      dailyLimit: 2000000,
    },
  ],
} as const;

export function demoInstructions(baseUrl: string): string {
  return [
    'Demo data applied. Try an H2H deposit (hash = sha256(apikey + transaction_id + secret + round(amount))):',
    `  HASH=$(printf '%s' "demo_h2h_keyDEMO-1demo_h2h_secret250" | sha256sum | cut -d' ' -f1)`,
    `  curl -s -X POST ${baseUrl}/deposit/bank -H 'content-type: application/json' \\`,
    `    -d "{\\"apikey\\":\\"demo_h2h_key\\",\\"transaction_id\\":\\"DEMO-1\\",\\"amount\\":250,\\"fullname\\":\\"Ayşe Yılmaz\\",\\"hash\\":\\"$HASH\\"}"`,
    `  curl -s -X POST ${baseUrl}/status/DEMO-1 -H 'x-api-key: demo_h2h_key' -H 'x-api-secret: demo_h2h_secret'`,
    'Every demo provider is a sandbox provider: decide your own transaction and its callback follows:',
    `  curl -s -X POST ${baseUrl}/sandbox/transactions/DEMO-1/approve -H 'x-api-key: demo_h2h_key' -H 'x-api-secret: demo_h2h_secret'`,
  ].join('\n');
}
