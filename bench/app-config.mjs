// The app the HTTP phases run against: its bootstrap (one merchant, one provider per API form, one
// bank account) and its runtime config, shared by bench/run.mjs and bench/deposit-cpu.mjs so both
// measure the same app.
export const BODY_LIMIT = 262_144;

// The per-provider limiter stays on (its cost is part of the request path) but at the highest
// value the config accepts, so it never trips: all bench traffic uses one API key.
export const RATE_LIMIT_PER_MINUTE = 1_000_000;

/** The one receiving account of every bench app (the deposit phases' and the callback phase's). */
export const BENCH_BANK_ACCOUNT = {
  bank: 'Ziraat Bankası',
  iban: 'TR330006100519786457841326',
  holderName: 'Bench Ltd',
  fast: true,
  minAmount: 1,
  maxAmount: 500000,
  dailyLimit: 100000000000,
};

export const BOOTSTRAP = {
  infrastructures: [
    {
      name: 'Bench H2H',
      slug: 'bench',
      apiForm: 'h2h',
      callbackFormat: 'h2h',
      callback_deposit: 'http://127.0.0.1:9/cb/dep',
      callback_withdrawal: 'http://127.0.0.1:9/cb/wd',
    },
    {
      name: 'Bench Merchant',
      slug: 'bench-merchant',
      apiForm: 'merchant',
      callbackFormat: 'merchant',
      callback_deposit: 'http://127.0.0.1:9/cb/m/dep',
      callback_withdrawal: 'http://127.0.0.1:9/cb/m/wd',
    },
    {
      name: 'Bench Infra',
      slug: 'bench-infra',
      apiForm: 'infrastructure',
      callbackFormat: 'infrastructure',
      callback_deposit: 'http://127.0.0.1:9/cb/i/dep',
      callback_withdrawal: 'http://127.0.0.1:9/cb/i/wd',
    },
  ],
  merchants: [
    {
      name: 'Bench',
      minAmount: 1,
      maxAmount: 500000,
      depositCommissionPercent: 1.5,
      providers: [
        { name: 'bench-h2h', infrastructure: 'bench', apiKey: 'ak_bench_1', apiSecret: 'sk_bench_1' },
        { name: 'bench-merchant', infrastructure: 'bench-merchant', apiKey: 'ak_bench_m', apiSecret: 'sk_bench_m' },
        { name: 'bench-infra', infrastructure: 'bench-infra', apiKey: 'ak_bench_i', apiSecret: 'sk_bench_i' },
      ],
    },
  ],
  bankAccounts: [BENCH_BANK_ACCOUNT],
};

/** The bench's app config: the app's own defaults for every field, then the bench's explicit values. */
export function appConfig(allInOne, { dataDir, secretKey, databaseUrl }) {
  return {
    // The app's own defaults for every field (so a field added to RuntimeConfig gets its real
    // default), then the bench's explicit values.
    ...(typeof allInOne.loadRuntimeConfig === 'function'
      ? allInOne.loadRuntimeConfig({
          DATA_DIR: dataDir,
          TRANSFERGATE_SECRET_KEY: secretKey.toString('base64'),
          LOG_LEVEL: 'error',
          RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
        })
      : {}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    depositTtlMs: 1_800_000,
    secretKey,
    bodyLimitBytes: BODY_LIMIT,
    trustProxy: [],
    shutdownTimeoutMs: 10_000,
    logLevel: 'error',
    rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
    // The bench's callback receivers listen on loopback, which the egress policy refuses by default.
    callbackAllowedTargets: ['127.0.0.1/32'],
  };
}
