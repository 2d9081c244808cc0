import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isDeepStrictEqual } from 'node:util';
import {
  ChangeProviderCommand,
  DeleteMerchantCommand,
  DeleteProviderCommand,
  DomainError,
  EVENT_CATALOG,
  RevealProviderSecretCommand,
  STREAMS,
  SetMerchantActiveCommand,
  UpdateMerchantProvidersCommand,
  UpdateOperatorCommand,
  domainEvent,
  type ActorRef,
  type ConfigResult,
  type EventData,
  type MerchantActiveResult,
  type MerchantProvidersResult,
  type RevealedProviderSecret,
  RecordSignInCommand,
  type SignInOutcome,
} from '@transfergate/contracts';
import {
  EVENT_STORE,
  SQL_DATABASE,
  WrongExpectedVersionError,
  type PostgresEventStore,
  type RecordedEvent,
  type SqlDatabase,
} from '@transfergate/event-store';
import { SecretBox, hashPassword } from '@transfergate/security';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository, type PendingWrite } from '../persistence/ledger-repository.js';

/**
 * Back-office changes to merchants, providers and operators that the whole-record Configure*
 * commands cannot express without the panel resending secrets. Each reads the record's own stream
 * (never a read model, so it cannot overwrite a change not projected yet), decides, and appends at
 * the version it read; a lost race is re-decided a few times, then answered 409.
 *
 * Deletion of merchants and providers is soft: a MerchantDeleted / ProviderDeleted event carries the
 * whole record deactivated and marked `deleted`. The gateway then refuses the merchant's providers
 * (merchant_disabled) or the provider (provider_disabled) exactly as for a disabled record, balances
 * and transactions stay intact, and the stream keeps the history. Lists leave deleted records out
 * unless `?includeDeleted=true`. Saving a deleted provider restores it; a deleted merchant is
 * restored by SetMerchantActiveCommand with `restore` (the panel's save does that).
 */
const MAX_ATTEMPTS = 4;

async function lastEventOf(store: PostgresEventStore, streamId: string): Promise<RecordedEvent | undefined> {
  const events = await store.readStream(streamId);
  return events[events.length - 1];
}

async function decideAndAppend<R>(
  repository: LedgerRepository,
  actor: ActorRef,
  decide: () => Promise<{ writes: PendingWrite[]; result: R }>,
): Promise<R> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const { writes, result } = await decide();
    if (writes.length === 0) return result;
    try {
      await repository.append(writes, actor);
      return result;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }
  throw new DomainError('concurrency_conflict', 'the record is changing at the same time; reload and retry');
}

type MerchantRecord = EventData<'MerchantConfigured'>;
type ProviderRecord = EventData<'ProviderConfigured'>;

async function loadMerchant(store: PostgresEventStore, merchantId: string) {
  const last = await lastEventOf(store, STREAMS.merchant(merchantId));
  if (!last) throw new DomainError('not_found', `no merchant ${merchantId}`);
  return {
    record: EVENT_CATALOG.MerchantConfigured.schema.parse(last.data) as MerchantRecord,
    deleted: last.type === 'MerchantDeleted',
    version: last.streamVersion,
  };
}

async function loadProvider(store: PostgresEventStore, providerId: string) {
  const last = await lastEventOf(store, STREAMS.provider(providerId));
  if (!last) throw new DomainError('not_found', `no provider ${providerId}`);
  return {
    record: EVENT_CATALOG.ProviderConfigured.schema.parse(last.data) as ProviderRecord,
    deleted: last.type === 'ProviderDeleted',
    version: last.streamVersion,
  };
}

@CommandHandler(SetMerchantActiveCommand)
export class SetMerchantActiveHandler implements ICommandHandler<SetMerchantActiveCommand, MerchantActiveResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  async execute({ merchantId, active, actor, restore }: SetMerchantActiveCommand): Promise<MerchantActiveResult> {
    return decideAndAppend<MerchantActiveResult>(this.repository, actor, async () => {
      const current = await loadMerchant(this.store, merchantId);
      if (current.deleted && !restore) throw new DomainError('not_found', `merchant ${merchantId} is deleted`);
      const next = active ?? !current.record.active;
      if (!current.deleted && current.record.active === next) {
        return { writes: [], result: { id: merchantId, changed: false, active: next } };
      }
      return {
        writes: [
          {
            streamId: STREAMS.merchant(merchantId),
            expectedVersion: current.version,
            events: [domainEvent('MerchantConfigured', { ...current.record, active: next })],
          },
        ],
        result: { id: merchantId, changed: true, active: next },
      };
    });
  }
}

@CommandHandler(DeleteMerchantCommand)
export class DeleteMerchantHandler implements ICommandHandler<DeleteMerchantCommand, ConfigResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  async execute({ merchantId, actor }: DeleteMerchantCommand): Promise<ConfigResult> {
    return decideAndAppend<ConfigResult>(this.repository, actor, async () => {
      const current = await loadMerchant(this.store, merchantId);
      if (current.deleted) return { writes: [], result: { id: merchantId, changed: false } };
      return {
        writes: [
          {
            streamId: STREAMS.merchant(merchantId),
            expectedVersion: current.version,
            events: [domainEvent('MerchantDeleted', { ...current.record, active: false, deleted: true })],
          },
        ],
        result: { id: merchantId, changed: true },
      };
    });
  }
}

@CommandHandler(UpdateMerchantProvidersCommand)
export class UpdateMerchantProvidersHandler implements ICommandHandler<
  UpdateMerchantProvidersCommand,
  MerchantProvidersResult
> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async execute({ merchantId, providerIds, actor }: UpdateMerchantProvidersCommand): Promise<MerchantProvidersResult> {
    const listed = new Set(providerIds);
    return decideAndAppend<MerchantProvidersResult>(this.repository, actor, async () => {
      const merchant = await loadMerchant(this.store, merchantId);
      if (merchant.deleted) throw new DomainError('not_found', `merchant ${merchantId} is deleted`);
      // The merchant's providers now; each is re-read from its stream before it is changed.
      const { rows } = await this.db.query<{ provider_id: string }>(
        'select provider_id from rm_providers where merchant_id = $1',
        [merchantId],
      );
      const candidates = [...new Set([...listed, ...rows.map((r) => r.provider_id)])].sort();
      const writes: PendingWrite[] = [];
      for (const providerId of candidates) {
        const isListed = listed.has(providerId);
        const provider = await loadProvider(this.store, providerId);
        if (provider.deleted) {
          if (isListed) throw new DomainError('not_found', `provider ${providerId} is deleted`);
          continue;
        }
        let next: ProviderRecord;
        if (isListed) next = { ...provider.record, merchantId, active: true };
        else if (provider.record.merchantId === merchantId) next = { ...provider.record, active: false };
        else continue;
        if (isDeepStrictEqual(next, provider.record)) continue;
        writes.push({
          streamId: STREAMS.provider(providerId),
          expectedVersion: provider.version,
          events: [domainEvent('ProviderConfigured', next)],
        });
      }
      const changedProviders = writes.map((w) => w.streamId.slice('provider-'.length));
      return { writes, result: { id: merchantId, changed: writes.length > 0, changedProviders } };
    });
  }
}

@CommandHandler(ChangeProviderCommand)
export class ChangeProviderHandler implements ICommandHandler<ChangeProviderCommand, ConfigResult> {
  private readonly box: SecretBox;
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(LEDGER_SETTINGS) settings: LedgerSettings,
  ) {
    this.box = new SecretBox(settings.secretKey);
  }

  async execute({ providerId, change, actor }: ChangeProviderCommand): Promise<ConfigResult> {
    if (change.apiSecret !== undefined && change.apiSecret.length < 8) {
      throw new DomainError('validation_failed', 'apiSecret needs at least 8 characters');
    }
    if (change.merchantId !== undefined) {
      const merchant = await loadMerchant(this.store, change.merchantId);
      if (merchant.deleted) throw new DomainError('not_found', `merchant ${change.merchantId} is deleted`);
    }
    if (change.infrastructureId !== undefined) {
      if (!(await lastEventOf(this.store, STREAMS.infrastructure(change.infrastructureId)))) {
        throw new DomainError('not_found', `no infrastructure ${change.infrastructureId}`);
      }
    }
    // Sealed once: a retry after a lost race keeps the same ciphertext.
    const sealed = change.apiSecret === undefined ? undefined : this.box.seal(change.apiSecret);
    return decideAndAppend<ConfigResult>(this.repository, actor, async () => {
      const current = await loadProvider(this.store, providerId);
      const { sandbox: _sandbox, ...unflagged } = current.record;
      const next: ProviderRecord = {
        ...(change.sandbox === undefined ? current.record : unflagged),
        ...(change.sandbox ? { sandbox: true as const } : {}),
        ...(change.merchantId !== undefined ? { merchantId: change.merchantId } : {}),
        ...(change.infrastructureId !== undefined ? { infrastructureId: change.infrastructureId } : {}),
        ...(change.apiAllowedIps !== undefined ? { apiAllowedIps: change.apiAllowedIps } : {}),
        ...(change.active !== undefined ? { active: change.active } : {}),
        ...(sealed !== undefined ? { apiSecretSealed: sealed } : {}),
      };
      // A deleted provider saved again is restored, even with unchanged fields.
      if (!current.deleted && isDeepStrictEqual(next, current.record)) {
        return { writes: [], result: { id: providerId, changed: false } };
      }
      return {
        writes: [
          {
            streamId: STREAMS.provider(providerId),
            expectedVersion: current.version,
            events: [domainEvent('ProviderConfigured', next)],
          },
        ],
        result: { id: providerId, changed: true },
      };
    });
  }
}

@CommandHandler(DeleteProviderCommand)
export class DeleteProviderHandler implements ICommandHandler<DeleteProviderCommand, ConfigResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  async execute({ providerId, actor }: DeleteProviderCommand): Promise<ConfigResult> {
    return decideAndAppend<ConfigResult>(this.repository, actor, async () => {
      const current = await loadProvider(this.store, providerId);
      if (current.deleted) return { writes: [], result: { id: providerId, changed: false } };
      return {
        writes: [
          {
            streamId: STREAMS.provider(providerId),
            expectedVersion: current.version,
            events: [domainEvent('ProviderDeleted', { ...current.record, active: false, deleted: true })],
          },
        ],
        result: { id: providerId, changed: true },
      };
    });
  }
}

/**
 * Unseals a provider secret for an operator who holds providers.reveal_secret. Every reveal is an
 * event (stream `provider-secret-access-<id>`, who and from where), so the audit log shows it.
 */
@CommandHandler(RevealProviderSecretCommand)
export class RevealProviderSecretHandler implements ICommandHandler<
  RevealProviderSecretCommand,
  RevealedProviderSecret
> {
  private readonly box: SecretBox;
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(LEDGER_SETTINGS) settings: LedgerSettings,
  ) {
    this.box = new SecretBox(settings.secretKey);
  }

  async execute({ providerId, actor }: RevealProviderSecretCommand): Promise<RevealedProviderSecret> {
    const current = await loadProvider(this.store, providerId);
    if (current.deleted) throw new DomainError('not_found', `provider ${providerId} is deleted`);
    await this.repository.append(
      [
        {
          streamId: STREAMS.providerSecretAccess(providerId),
          expectedVersion: 'any',
          events: [domainEvent('ProviderSecretRevealed', { providerId, apiKey: current.record.apiKey })],
        },
      ],
      actor,
    );
    return {
      providerId,
      name: current.record.name,
      apiKey: current.record.apiKey,
      apiSecret: this.box.open(current.record.apiSecretSealed),
    };
  }
}

@CommandHandler(UpdateOperatorCommand)
export class UpdateOperatorHandler implements ICommandHandler<UpdateOperatorCommand, ConfigResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  async execute({ operatorId, change, actor }: UpdateOperatorCommand): Promise<ConfigResult> {
    if (change.password !== undefined && change.password.length < 10) {
      throw new DomainError('validation_failed', 'operator password needs at least 10 characters');
    }
    // Hashed once (scrypt is slow on purpose); a retry after a lost race reuses the hash.
    const passwordHash = change.password === undefined ? undefined : await hashPassword(change.password);
    return decideAndAppend<ConfigResult>(this.repository, actor, async () => {
      const last = await lastEventOf(this.store, STREAMS.operator(operatorId));
      if (!last) throw new DomainError('not_found', `no operator ${operatorId}`);
      const current = EVENT_CATALOG.OperatorConfigured.schema.parse(last.data);
      const next = {
        ...current,
        ...(change.role !== undefined ? { role: change.role } : {}),
        ...(change.active !== undefined ? { active: change.active } : {}),
        ...(passwordHash !== undefined ? { passwordHash } : {}),
      };
      if (isDeepStrictEqual(next, current)) return { writes: [], result: { id: operatorId, changed: false } };
      return {
        writes: [
          {
            streamId: STREAMS.operator(operatorId),
            expectedVersion: last.streamVersion,
            events: [domainEvent('OperatorConfigured', next)],
          },
        ],
        result: { id: operatorId, changed: true },
      };
    });
  }
}

/**
 * A sign-in for the audit log, on the operator's own `signin-<id>` stream (any version: sign-ins
 * never conflict with each other or with the operator's record).
 */
@CommandHandler(RecordSignInCommand)
export class RecordSignInHandler implements ICommandHandler<RecordSignInCommand, void> {
  constructor(private readonly repository: LedgerRepository) {}

  async execute({ outcome, username, operatorId, secondFactorRequired, actor }: RecordSignInCommand): Promise<void> {
    const typed = username.trim().slice(0, 64);
    const event = signInEvent(outcome, typed, operatorId, secondFactorRequired);
    await this.repository.append(
      [{ streamId: STREAMS.signIn(operatorId), expectedVersion: 'any', events: [event] }],
      actor,
    );
  }
}

function signInEvent(
  outcome: SignInOutcome,
  username: string,
  operatorId: string | undefined,
  secondFactorRequired: boolean,
) {
  if (outcome === 'failed') {
    return domainEvent('OperatorSignInFailed', { username, ...(operatorId ? { operatorId } : {}) });
  }
  // Every other step follows a right password or a verified challenge, so it names its operator.
  if (!operatorId) throw new Error(`sign-in step ${outcome} without an operator`);
  switch (outcome) {
    case 'signed_in':
      return domainEvent('OperatorSignedIn', { operatorId, username, secondFactorRequired });
    case 'second_factor_verified':
      return domainEvent('OperatorSecondFactorVerified', { operatorId, username });
    case 'second_factor_failed':
      return domainEvent('OperatorSecondFactorFailed', { operatorId, username });
  }
}

export const RECORDS_COMMAND_HANDLERS = [
  RecordSignInHandler,
  SetMerchantActiveHandler,
  DeleteMerchantHandler,
  UpdateMerchantProvidersHandler,
  ChangeProviderHandler,
  DeleteProviderHandler,
  RevealProviderSecretHandler,
  UpdateOperatorHandler,
];
