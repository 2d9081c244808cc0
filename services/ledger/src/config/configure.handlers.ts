import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  ConfigureBankAccountCommand,
  ConfigureInfrastructureCommand,
  ConfigureMerchantCommand,
  ConfigureOperatorCommand,
  ConfigureProviderCommand,
  DomainError,
  STREAMS,
  checkTurkishIban,
  domainEvent,
  turkishBankCode,
  type ActorRef,
  type ConfigResult,
  type DomainEvent,
  type EventType,
} from '@transfergate/contracts';
import { SQL_DATABASE, WrongExpectedVersionError, type SqlDatabase } from '@transfergate/event-store';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository, type PendingWrite } from '../persistence/ledger-repository.js';
import { configIdFor } from '../persistence/ids.js';
import { SecretBox, callbackUrlRefusal, egressPolicy, type EgressPolicy } from '@transfergate/security';
import { hashPassword, verifyPassword } from '@transfergate/security';

type ConfigType =
  | 'MerchantConfigured'
  | 'ProviderConfigured'
  | 'InfrastructureConfigured'
  | 'BankAccountConfigured'
  | 'OperatorConfigured';

/** Appends the new record only when it differs from the stream's last one (idempotent provisioning). */
async function configure<T extends ConfigType>(
  repository: LedgerRepository,
  streamId: string,
  id: string,
  type: T,
  build: (current: import('@transfergate/contracts').EventData<T> | undefined) => Promise<DomainEvent<T>['data']>,
  actor: ActorRef,
  /** Further writes that must land atomically with the record (e.g. a uniqueness claim). */
  alongside: PendingWrite[] = [],
): Promise<ConfigResult> {
  const { state, version } = await repository.loadConfig(streamId, type);
  const next = await build(state);
  if (state && isDeepStrictEqual(state, next)) return { id, changed: false };
  await repository.append(
    [
      {
        streamId,
        expectedVersion: version === 0 ? 'no_stream' : version,
        events: [domainEvent(type as EventType, next as never)],
      },
      ...alongside,
    ],
    actor,
  );
  return { id, changed: true };
}

const HTTP_URL = /^https?:\/\/[^\s]+$/i;

/**
 * Saves an infrastructure (panel and provisioning file alike). Its callback URLs must pass the
 * egress policy: http(s), no user name or password, no loopback, private, link-local, metadata ...
 * address unless CALLBACK_ALLOWED_TARGETS allows it (400 callback_url_refused). Host names are
 * checked again, after DNS resolution, whenever a callback connects.
 */
@CommandHandler(ConfigureInfrastructureCommand)
export class ConfigureInfrastructureHandler implements ICommandHandler<ConfigureInfrastructureCommand, ConfigResult> {
  private readonly egress: EgressPolicy;
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(LEDGER_SETTINGS) settings: LedgerSettings,
  ) {
    this.egress = egressPolicy(settings.callbackAllowedTargets);
  }
  async execute({ input, actor }: ConfigureInfrastructureCommand): Promise<ConfigResult> {
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.slug))
      throw new DomainError('validation_failed', `invalid slug ${input.slug}`);
    for (const [field, url] of [
      ['callback_deposit', input.callbackDeposit],
      ['callback_withdrawal', input.callbackWithdrawal],
    ] as const) {
      if (!HTTP_URL.test(url)) throw new DomainError('validation_failed', `callback URL must be http(s): ${url}`);
      const refusal = callbackUrlRefusal(url, this.egress);
      if (refusal) {
        throw new DomainError('callback_url_refused', `${field} refused: ${refusal}`, {
          fields: [{ field, problem: refusal }],
        });
      }
    }
    const id = configIdFor.infrastructure(input.slug);
    return configure(
      this.repository,
      STREAMS.infrastructure(id),
      id,
      'InfrastructureConfigured',
      async () => ({
        infrastructureId: id,
        name: input.name,
        slug: input.slug,
        apiForm: input.apiForm,
        callbackFormat: input.callbackFormat,
        callbackDeposit: input.callbackDeposit,
        callbackWithdrawal: input.callbackWithdrawal,
        webhookAllowedIps: input.webhookAllowedIps,
      }),
      actor,
    );
  }
}

@CommandHandler(ConfigureMerchantCommand)
export class ConfigureMerchantHandler implements ICommandHandler<ConfigureMerchantCommand, ConfigResult> {
  constructor(private readonly repository: LedgerRepository) {}
  async execute({ input, actor }: ConfigureMerchantCommand): Promise<ConfigResult> {
    if (input.minAmountKurus <= 0n || input.maxAmountKurus < input.minAmountKurus) {
      throw new DomainError('validation_failed', 'merchant needs 0 < minAmount ≤ maxAmount');
    }
    if (input.overdraftLimitKurus < 0n) throw new DomainError('validation_failed', 'overdraftLimit cannot be negative');
    const id = configIdFor.merchant(input.name);
    return configure(
      this.repository,
      STREAMS.merchant(id),
      id,
      'MerchantConfigured',
      async () => ({
        merchantId: id,
        name: input.name,
        active: input.active,
        minAmountKurus: input.minAmountKurus.toString(),
        maxAmountKurus: input.maxAmountKurus.toString(),
        depositCommissionBp: input.depositCommissionBp,
        withdrawalCommissionBp: input.withdrawalCommissionBp,
        overdraftLimitKurus: input.overdraftLimitKurus.toString(),
      }),
      actor,
    );
  }
}

@CommandHandler(ConfigureProviderCommand)
export class ConfigureProviderHandler implements ICommandHandler<ConfigureProviderCommand, ConfigResult> {
  private readonly box: SecretBox;
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(LEDGER_SETTINGS) settings: LedgerSettings,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {
    this.box = new SecretBox(settings.secretKey);
  }
  async execute({ input, actor }: ConfigureProviderCommand): Promise<ConfigResult> {
    if (input.apiKey.length < 8 || input.apiSecret.length < 8) {
      throw new DomainError('validation_failed', 'apiKey and apiSecret need at least 8 characters');
    }
    const id = configIdFor.provider(input.name);
    // An API key has one owner, decided by the event store (not by the read model's unique index,
    // which a duplicate would otherwise hit inside the projection and stall it).
    const apiKeyHash = createHash('sha256').update(input.apiKey).digest('hex');
    const keyStream = STREAMS.apiKey(apiKeyHash);
    const claim = (await this.repository.readFirstData(keyStream)) as { providerId?: string } | undefined;
    if (claim && claim.providerId !== id)
      throw new DomainError('already_exists', 'this API key belongs to another provider');
    const alongside: PendingWrite[] = claim
      ? []
      : [
          {
            streamId: keyStream,
            expectedVersion: 'no_stream',
            events: [domainEvent('ApiKeyClaimed', { providerId: id, apiKeyHash })],
          },
        ];
    try {
      return await this.configureProvider(input, id, actor, alongside);
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && error.streamId === keyStream) {
        throw new DomainError('already_exists', 'this API key belongs to another provider');
      }
      throw error;
    }
  }

  private configureProvider(
    input: ConfigureProviderCommand['input'],
    id: string,
    actor: ActorRef,
    alongside: PendingWrite[],
  ) {
    return configure(
      this.repository,
      STREAMS.provider(id),
      id,
      'ProviderConfigured',
      async (current) => {
        // Re-seal only when the secret changed: sealing is randomised, so an unchanged secret keeps its ciphertext.
        const sealed =
          current && this.box.open(current.apiSecretSealed) === input.apiSecret
            ? current.apiSecretSealed
            : this.box.seal(input.apiSecret);
        const number =
          current?.number ??
          Number((await this.db.query<{ n: string }>(`select nextval('provider_number_seq')::text n`)).rows[0]!.n);
        return {
          providerId: id,
          number,
          merchantId: input.merchantId,
          infrastructureId: input.infrastructureId,
          name: input.name,
          apiKey: input.apiKey,
          apiSecretSealed: sealed,
          apiAllowedIps: input.apiAllowedIps,
          active: input.active,
          ...(input.sandbox ? { sandbox: true as const } : {}),
        };
      },
      actor,
      alongside,
    );
  }
}

@CommandHandler(ConfigureBankAccountCommand)
export class ConfigureBankAccountHandler implements ICommandHandler<ConfigureBankAccountCommand, ConfigResult> {
  constructor(private readonly repository: LedgerRepository) {}
  async execute({ input, actor }: ConfigureBankAccountCommand): Promise<ConfigResult> {
    const iban = checkTurkishIban(input.iban);
    if (!iban.ok) throw new DomainError('invalid_iban', `${input.iban}: ${iban.reason}`);
    const id = configIdFor.bankAccount(iban.iban);
    return configure(
      this.repository,
      STREAMS.bankAccount(id),
      id,
      'BankAccountConfigured',
      async () => ({
        bankAccountId: id,
        bank: input.bank,
        bankCode: turkishBankCode(iban.iban),
        iban: iban.iban,
        holderName: input.holderName,
        fast: input.fast,
        minAmountKurus: input.minAmountKurus.toString(),
        maxAmountKurus: input.maxAmountKurus.toString(),
        dailyLimitKurus: input.dailyLimitKurus.toString(),
        active: input.active,
      }),
      actor,
    );
  }
}

@CommandHandler(ConfigureOperatorCommand)
export class ConfigureOperatorHandler implements ICommandHandler<ConfigureOperatorCommand, ConfigResult> {
  constructor(private readonly repository: LedgerRepository) {}
  async execute({ input, actor }: ConfigureOperatorCommand): Promise<ConfigResult> {
    if (input.password.length < 10)
      throw new DomainError('validation_failed', 'operator password needs at least 10 characters');
    const id = configIdFor.operator(input.username);
    return configure(
      this.repository,
      STREAMS.operator(id),
      id,
      'OperatorConfigured',
      async (current) => ({
        operatorId: id,
        username: input.username,
        passwordHash:
          current && (await verifyPassword(input.password, current.passwordHash))
            ? current.passwordHash
            : await hashPassword(input.password),
        role: input.role,
        active: input.active,
        // Provisioning again must not switch off an operator's second factor.
        ...(current?.totpSecretSealed ? { totpSecretSealed: current.totpSecretSealed } : {}),
      }),
      actor,
    );
  }
}
