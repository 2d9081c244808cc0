import { createHash, randomUUID } from 'node:crypto';
import { parseBootstrap } from '@transfergate/all-in-one';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const KEYS = {
  merchant: { apiKey: 'ak_merchant_1', apiSecret: 'sk_merchant_1' },
  h2h: { apiKey: 'ak_h2h_00001', apiSecret: 'sk_h2h_00001' },
  infra: { apiKey: 'ak_infra_0001', apiSecret: 'sk_infra_0001' },
  ipLocked: { apiKey: 'ak_locked_001', apiSecret: 'sk_locked_001' },
  disabled: { apiKey: 'ak_disabled_1', apiSecret: 'sk_disabled_1' },
  broke: { apiKey: 'ak_broke_0001', apiSecret: 'sk_broke_0001' },
};

const infra = (slug: string, apiForm: string) => ({
  name: `Conformance ${slug}`,
  slug,
  apiForm,
  callbackFormat: apiForm,
  callback_deposit: `http://127.0.0.1:9999/${slug}/deposit`,
  callback_withdrawal: `http://127.0.0.1:9999/${slug}/withdrawal`,
});

/** One provider per form, plus providers to prove IP allow-lists, disabling and the overdraft limit. */
export function conformanceBootstrap() {
  return parseBootstrap(
    {
      infrastructures: [
        infra('conf-merchant', 'merchant'),
        infra('conf-h2h', 'h2h'),
        infra('conf-infra', 'infrastructure'),
      ],
      merchants: [
        {
          name: 'Conformance',
          minAmount: 10,
          maxAmount: 1000000,
          depositCommissionPercent: 2,
          withdrawalCommissionPercent: 1,
          overdraftLimit: 5000000,
          providers: [
            { name: 'conf-merchant', infrastructure: 'conf-merchant', ...KEYS.merchant },
            { name: 'conf-h2h', infrastructure: 'conf-h2h', ...KEYS.h2h },
            { name: 'conf-infra', infrastructure: 'conf-infra', ...KEYS.infra },
            { name: 'conf-locked', infrastructure: 'conf-h2h', ...KEYS.ipLocked, apiAllowedIps: ['10.0.0.0/8'] },
            { name: 'conf-disabled', infrastructure: 'conf-h2h', ...KEYS.disabled, active: false },
          ],
        },
        {
          name: 'Broke',
          minAmount: 10,
          maxAmount: 1000000,
          overdraftLimit: 0,
          providers: [{ name: 'conf-broke', infrastructure: 'conf-h2h', ...KEYS.broke }],
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
        {
          bank: 'Garanti BBVA',
          iban: 'TR930006200000000006295317',
          holderName: 'Transfer Ltd',
          fast: false,
          minAmount: 1,
          maxAmount: 250000,
          dailyLimit: 100000000,
        },
      ],
    },
    'conformance',
  );
}

export const VALID_IBAN = 'TR330006100519786457841326';

export function h2hBody(
  key: { apiKey: string; apiSecret: string },
  transactionId: string,
  amount: number | string,
  extra: Record<string, unknown> = {},
) {
  return {
    apikey: key.apiKey,
    transaction_id: transactionId,
    amount,
    fullname: 'Ayşe Yılmaz',
    hash: sha256(`${key.apiKey}${transactionId}${key.apiSecret}${Math.round(Number(amount))}`),
    ...extra,
  };
}

export function infraFields(
  transactionId: string,
  amount: number | string,
  extra: Record<string, string | number> = {},
) {
  // One GUID per request: the gateway refuses a GUID used by another request (operation_guid_reused).
  const operationGuid = String(extra.OperationGuid ?? randomUUID());
  return {
    ApiKey: KEYS.infra.apiKey,
    OperationGuid: operationGuid,
    RequestId: transactionId,
    SecurityKey: sha256(`${KEYS.infra.apiKey}${KEYS.infra.apiSecret}${operationGuid}`),
    Amount: amount,
    ...extra,
  };
}
