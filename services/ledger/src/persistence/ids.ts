import { nameUuid } from '@transfergate/contracts';

/** Stable ids of configuration records, from their natural keys (bootstrap is idempotent by them). */
export const configIdFor = {
  infrastructure: (slug: string) => nameUuid(`infrastructure:${slug}`),
  merchant: (name: string) => nameUuid(`merchant:${name}`),
  provider: (name: string) => nameUuid(`provider:${name}`),
  bankAccount: (iban: string) => nameUuid(`bank-account:${iban}`),
  operator: (username: string) => nameUuid(`operator:${username.toLowerCase()}`),
  role: (name: string) => nameUuid(`role:${name}`),
};
