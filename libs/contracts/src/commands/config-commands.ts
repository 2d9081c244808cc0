import { Command } from '@nestjs/cqrs';
import type { ActorRef } from './transaction-commands.js';

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
