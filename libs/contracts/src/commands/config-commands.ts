import { Command } from '@nestjs/cqrs';
import type { ActorRef } from './transaction-commands.js';
import type { ApiSettingKey } from '../events/config-events.js';

/**
 * Configuration commands. Each carries the whole desired record; the ledger appends an event only
 * when something differs from the current state, which makes provisioning idempotent.
 */
export interface ConfigResult {
  id: string;
  changed: boolean;
}

export interface InfrastructureInput {
  name: string;
  slug: string;
  apiForm: 'merchant' | 'h2h' | 'infrastructure';
  callbackFormat: 'merchant' | 'h2h' | 'infrastructure' | 'md5';
  callbackDeposit: string;
  callbackWithdrawal: string;
  webhookAllowedIps: string[];
}

export interface MerchantInput {
  name: string;
  active: boolean;
  minAmountKurus: bigint;
  maxAmountKurus: bigint;
  depositCommissionBp: number;
  withdrawalCommissionBp: number;
  overdraftLimitKurus: bigint;
}

export interface ProviderInput {
  name: string;
  merchantId: string;
  infrastructureId: string;
  apiKey: string;
  /** Plain secret: sealed by the ledger before it reaches an event. */
  apiSecret: string;
  apiAllowedIps: string[];
  active: boolean;
  /** A sandbox provider (see ProviderConfigured.sandbox); absent: false. */
  sandbox?: boolean;
}

export interface BankAccountInput {
  bank: string;
  iban: string;
  holderName: string;
  fast: boolean;
  minAmountKurus: bigint;
  maxAmountKurus: bigint;
  dailyLimitKurus: bigint;
  active: boolean;
}

export interface OperatorInput {
  username: string;
  /** Plain password: hashed by the ledger (scrypt) before it reaches an event. */
  password: string;
  role: string;
  active: boolean;
}

export class ConfigureInfrastructureCommand extends Command<ConfigResult> {
  constructor(
    readonly input: InfrastructureInput,
    readonly actor: ActorRef,
  ) {
    super();
  }
}
export class ConfigureMerchantCommand extends Command<ConfigResult> {
  constructor(
    readonly input: MerchantInput,
    readonly actor: ActorRef,
  ) {
    super();
  }
}
export class ConfigureProviderCommand extends Command<ConfigResult> {
  constructor(
    readonly input: ProviderInput,
    readonly actor: ActorRef,
  ) {
    super();
  }
}
export class ConfigureBankAccountCommand extends Command<ConfigResult> {
  constructor(
    readonly input: BankAccountInput,
    readonly actor: ActorRef,
  ) {
    super();
  }
}
export class ConfigureOperatorCommand extends Command<ConfigResult> {
  constructor(
    readonly input: OperatorInput,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/** Changes an operator's password (the caller has verified the old one). */
export class ChangeOperatorPasswordCommand extends Command<ConfigResult> {
  constructor(
    readonly operatorId: string,
    readonly newPassword: string,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/** Sets (sealed secret) or clears (null) an operator's TOTP second factor. */
export class SetOperatorTwoFactorCommand extends Command<ConfigResult> {
  constructor(
    readonly operatorId: string,
    readonly totpSecretSealed: string | null,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

export interface RoleInput {
  name: string;
  permissions: string[];
}

export class ConfigureRoleCommand extends Command<ConfigResult> {
  constructor(
    readonly input: RoleInput,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

export class DeleteRoleCommand extends Command<ConfigResult> {
  constructor(
    readonly name: string,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/**
 * Back-office record changes that keep what the panel must not (or cannot) resend: a provider's
 * sealed secret, an operator's password hash and TOTP secret. Each loads the record's stream, so it
 * never writes over a change the read models have not applied yet.
 */
export interface MerchantActiveResult extends ConfigResult {
  active: boolean;
}

/** Sets a merchant's `active` flag (`undefined` flips it). A deleted merchant is refused unless `restore`. */
export class SetMerchantActiveCommand extends Command<MerchantActiveResult> {
  constructor(
    readonly merchantId: string,
    readonly active: boolean | undefined,
    readonly actor: ActorRef,
    readonly restore = false,
  ) {
    super();
  }
}

/** Soft deletion: a MerchantDeleted event (the record, deactivated, marked deleted). */
export class DeleteMerchantCommand extends Command<ConfigResult> {
  constructor(
    readonly merchantId: string,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

export interface MerchantProvidersResult extends ConfigResult {
  /** Providers whose record changed (moved, activated or deactivated). */
  changedProviders: string[];
}

/**
 * Makes `providerIds` the merchant's active providers: each listed one is attached to the merchant
 * and activated; its other providers are deactivated (they stay attached: a provider needs a merchant).
 * One atomic multi-stream append.
 */
export class UpdateMerchantProvidersCommand extends Command<MerchantProvidersResult> {
  constructor(
    readonly merchantId: string,
    readonly providerIds: string[],
    readonly actor: ActorRef,
  ) {
    super();
  }
}

export interface ProviderChange {
  merchantId?: string;
  infrastructureId?: string;
  apiAllowedIps?: string[];
  active?: boolean;
  sandbox?: boolean;
  /** A new plain secret (rotation): sealed by the ledger. */
  apiSecret?: string;
}

/** Changes an existing provider, keeping its key and (unless rotated) its sealed secret. Restores a deleted one. */
export class ChangeProviderCommand extends Command<ConfigResult> {
  constructor(
    readonly providerId: string,
    readonly change: ProviderChange,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/** Soft deletion: a ProviderDeleted event (the record, deactivated, marked deleted). */
export class DeleteProviderCommand extends Command<ConfigResult> {
  constructor(
    readonly providerId: string,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/** The longest overlap window a rotation may ask for: 7 days. */
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 86_400;

/**
 * Replaces a provider's API secret with `apiSecret` (sealed by the ledger). For `overlapSeconds` the
 * secret it replaces stays accepted beside it (0: a hard cut). A secret still in its overlap from an
 * earlier rotation is dropped: at most two are ever in force.
 */
export class RotateProviderSecretCommand extends Command<ConfigResult> {
  constructor(
    readonly providerId: string,
    readonly apiSecret: string,
    readonly overlapSeconds: number,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/** Ends a rotation's overlap window now: from the answer on only the current secret is accepted. */
export class EndProviderSecretOverlapCommand extends Command<ConfigResult> {
  constructor(
    readonly providerId: string,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

export interface RevealedProviderSecret {
  providerId: string;
  name: string;
  apiKey: string;
  apiSecret: string;
}

/** Unseals a provider's secret for an operator and records that it did (ProviderSecretRevealed). */
export class RevealProviderSecretCommand extends Command<RevealedProviderSecret> {
  constructor(
    readonly providerId: string,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

export interface OperatorChange {
  role?: string;
  active?: boolean;
  /** A new plain password: hashed by the ledger. */
  password?: string;
}

/** Changes an existing operator's role, active flag or password; the TOTP secret is kept. */
export class UpdateOperatorCommand extends Command<ConfigResult> {
  constructor(
    readonly operatorId: string,
    readonly change: OperatorChange,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

export interface ApiSettingsInput {
  testAuthEnabled: boolean;
  paymentPageUrl: string;
  depositTtlMinutes: number;
  callbackRetryScheduleSeconds: number[];
  rateLimitPerMinute: number;
  /** The keys an operator has set (see ApiSettingsConfiguredV1); absent: every key. */
  explicitKeys?: ApiSettingKey[];
}

/** The whole API settings set (stream `settings-api`); appended only when it differs. */
export class ConfigureApiSettingsCommand extends Command<ConfigResult> {
  constructor(
    readonly input: ApiSettingsInput,
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/**
 * Records a sign-in step for the audit log: the password step (OperatorSignedIn / OperatorSignInFailed)
 * or the authenticator-code step (OperatorSecondFactorVerified / OperatorSecondFactorFailed).
 */
export type SignInOutcome = 'signed_in' | 'failed' | 'second_factor_verified' | 'second_factor_failed';

export class RecordSignInCommand extends Command<void> {
  constructor(
    readonly outcome: SignInOutcome,
    readonly username: string,
    readonly operatorId: string | undefined,
    readonly secondFactorRequired: boolean,
    readonly actor: ActorRef,
  ) {
    super();
  }
}
