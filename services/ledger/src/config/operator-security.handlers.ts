import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  ChangeOperatorPasswordCommand,
  ConfigureRoleCommand,
  DeleteRoleCommand,
  DomainError,
  STREAMS,
  SetOperatorTwoFactorCommand,
  domainEvent,
  type ConfigResult,
} from '@transfergate/contracts';
import { hashPassword } from '@transfergate/security';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { configIdFor } from '../persistence/ids.js';

/** Operator security changes: each is a new full OperatorConfigured record on the operator's stream. */
async function changeOperator(
  repository: LedgerRepository,
  operatorId: string,
  change: (
    current: import('@transfergate/contracts').EventData<'OperatorConfigured'>,
  ) => Promise<import('@transfergate/contracts').EventData<'OperatorConfigured'>>,
  actor: import('@transfergate/contracts').ActorRef,
): Promise<ConfigResult> {
  const streamId = STREAMS.operator(operatorId);
  const { state, version } = await repository.loadConfig(streamId, 'OperatorConfigured');
  if (!state) throw new DomainError('not_found', 'no such operator');
  const next = await change(state);
  await repository.append(
    [{ streamId, expectedVersion: version, events: [domainEvent('OperatorConfigured', next)] }],
    actor,
  );
  return { id: operatorId, changed: true };
}

@CommandHandler(ChangeOperatorPasswordCommand)
export class ChangeOperatorPasswordHandler implements ICommandHandler<ChangeOperatorPasswordCommand, ConfigResult> {
  constructor(private readonly repository: LedgerRepository) {}
  async execute({ operatorId, newPassword, actor }: ChangeOperatorPasswordCommand): Promise<ConfigResult> {
    return changeOperator(
      this.repository,
      operatorId,
      async (current) => ({ ...current, passwordHash: await hashPassword(newPassword) }),
      actor,
    );
  }
}

@CommandHandler(SetOperatorTwoFactorCommand)
export class SetOperatorTwoFactorHandler implements ICommandHandler<SetOperatorTwoFactorCommand, ConfigResult> {
  constructor(private readonly repository: LedgerRepository) {}
  async execute({ operatorId, totpSecretSealed, actor }: SetOperatorTwoFactorCommand): Promise<ConfigResult> {
    return changeOperator(
      this.repository,
      operatorId,
      async (current) => {
        const { totpSecretSealed: _previous, ...rest } = current;
        return totpSecretSealed ? { ...rest, totpSecretSealed } : rest;
      },
      actor,
    );
  }
}

const ROLE_NAME = /^[a-z][a-z0-9_-]{1,31}$/;

@CommandHandler(ConfigureRoleCommand)
export class ConfigureRoleHandler implements ICommandHandler<ConfigureRoleCommand, ConfigResult> {
  constructor(private readonly repository: LedgerRepository) {}
  async execute({ input, actor }: ConfigureRoleCommand): Promise<ConfigResult> {
    if (!ROLE_NAME.test(input.name))
      throw new DomainError('validation_failed', 'role name: 2..32 of a-z, 0-9, _ and -, starting with a letter');
    const roleId = configIdFor.role(input.name);
    const streamId = STREAMS.role(roleId);
    const { state, version } = await this.repository.loadConfig(streamId, 'RoleConfigured');
    const permissions = [...new Set(input.permissions)].sort();
    if (state && !state.deleted && JSON.stringify(state.permissions) === JSON.stringify(permissions))
      return { id: roleId, changed: false };
    await this.repository.append(
      [
        {
          streamId,
          expectedVersion: version === 0 ? 'no_stream' : version,
          events: [domainEvent('RoleConfigured', { roleId, name: input.name, permissions, deleted: false })],
        },
      ],
      actor,
    );
    return { id: roleId, changed: true };
  }
}

@CommandHandler(DeleteRoleCommand)
export class DeleteRoleHandler implements ICommandHandler<DeleteRoleCommand, ConfigResult> {
  constructor(private readonly repository: LedgerRepository) {}
  async execute({ name, actor }: DeleteRoleCommand): Promise<ConfigResult> {
    const roleId = configIdFor.role(name);
    const streamId = STREAMS.role(roleId);
    const { state, version } = await this.repository.loadConfig(streamId, 'RoleConfigured');
    if (!state || state.deleted) throw new DomainError('not_found', `no role ${name}`);
    await this.repository.append(
      [{ streamId, expectedVersion: version, events: [domainEvent('RoleConfigured', { ...state, deleted: true })] }],
      actor,
    );
    return { id: roleId, changed: true };
  }
}
