import { Injectable } from '@nestjs/common';
import {
  ConfigureOperatorCommand,
  ConfigureRoleCommand,
  DeleteRoleCommand,
  DomainError,
  UpdateOperatorCommand,
  isMerchantRole,
  type MerchantRoleName,
  type OperatorSaveRequest,
} from '@transfergate/contracts';
import { actorOf, type OperatorContext } from '../auth/decorators.js';
import { assertPasswordPolicy } from '../auth/password-policy.js';
import { BUILT_IN_ROLES, isPermission, type Permission } from '../auth/permissions.js';
import { RecordBus } from './record-commands.js';
import { assertWithin } from './grant-rule.js';
import { customRoleView, operatorView } from './records.presenter.js';
import { SessionTokens } from '../auth/session-tokens.service.js';
import { inviteMerchantUser } from '../portal/portal.service.js';

/**
 * Operators and roles. Two rules keep RBAC from being a way around itself:
 * - nobody grants what they do not hold: a role saved, a role given to an operator, and the role of
 *   an operator being changed must all be within the acting operator's own permissions;
 * - nobody changes their own role or active flag (another operator must), so an admin cannot lock
 *   the last admin out by accident. Own password changes go through /api/auth/password.
 * Built-in roles cannot be redefined or deleted; a role still held by an operator cannot be deleted.
 * Operators are not deleted: active:false disables one (the guard refuses its tokens at once).
 */
@Injectable()
export class AccessService {
  constructor(
    private readonly bus: RecordBus,
    private readonly sessions: SessionTokens,
  ) {}

  async listOperators() {
    return { items: (await this.bus.list('operator')).map(operatorView) };
  }

  async getOperator(id: string) {
    return operatorView(await this.bus.require('operator', id, 'operator'));
  }

  async saveOperator(input: OperatorSaveRequest, actor: OperatorContext) {
    const current = await this.bus.get('operator', { key: input.username });
    this.bus.assertSameRecord(input.id, current && { id: current.record.operatorId }, 'username');
    if (input.role !== undefined) await this.assertMayGrant(actor, input.role);
    if (input.password !== undefined) assertPasswordPolicy(input.password, input.username);

    if (!current) {
      if (input.password === undefined || input.role === undefined) {
        throw new DomainError('validation_failed', 'invalid request: a new operator needs password and role');
      }
      const result = await this.bus.send(
        new ConfigureOperatorCommand(
          { username: input.username, password: input.password, role: input.role, active: input.active ?? true },
          actorOf(actor),
        ),
      );
      return { success: true, created: true, changed: result.changed, record: await this.getOperator(result.id) };
    }

    const target = current.record;
    if (target.operatorId === actor.operatorId && (input.role !== undefined || input.active !== undefined)) {
      if ((input.role ?? target.role) !== target.role || (input.active ?? target.active) !== target.active) {
        throw new DomainError('permission_denied', 'you cannot change your own role or active flag');
      }
    }
    // Changing someone who holds more than you would be a way to take their account over.
    await this.assertMayGrant(actor, target.role, `changing an operator with role ${target.role}`);
    const result = await this.bus.send(
      new UpdateOperatorCommand(
        target.operatorId,
        {
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
          ...(input.password !== undefined ? { password: input.password } : {}),
        },
        actorOf(actor),
      ),
    );
    // A password reset or a deactivation ends the operator's sessions at once (a reactivation later
    // does not bring them back: they stay revoked).
    if (input.password !== undefined || input.active === false) {
      await this.sessions.revokeOperatorSessions(
        target.operatorId,
        input.password !== undefined ? 'password reset by an administrator' : 'operator deactivated',
      );
    }
    return { success: true, created: false, changed: result.changed, record: await this.getOperator(result.id) };
  }

  /** A merchant user: an operator admin may invite into any merchant (the ledger checks it exists). */
  async inviteMerchantUser(
    input: { merchantId: string; username: string; role: MerchantRoleName },
    actor: OperatorContext,
  ) {
    return inviteMerchantUser(this.bus, input, actor);
  }

  /** Built-in roles first (with their fixed permissions), then the custom ones. */
  async listRoles(includeDeleted: boolean) {
    const custom = (await this.bus.list('role', { includeDeleted })).map(customRoleView);
    return { items: [...builtInRoleViews(), ...custom] };
  }

  async getRole(name: string) {
    const builtIn = builtInRoleViews().find((role) => role.name === name);
    if (builtIn) return builtIn;
    const row = name.length <= 64 ? await this.bus.get('role', { key: name }) : null;
    if (!row) throw new DomainError('not_found', `no role ${name.slice(0, 64)}`);
    return customRoleView(row);
  }

  async saveRole(name: string, permissions: string[], actor: OperatorContext) {
    if (Object.hasOwn(BUILT_IN_ROLES, name) || isMerchantRole(name)) {
      throw new DomainError('validation_failed', `invalid request: ${name} is a built-in role and cannot be redefined`);
    }
    const unknown = permissions.filter((p) => !isPermission(p));
    if (unknown.length > 0) {
      throw new DomainError('validation_failed', `invalid request: unknown permissions ${unknown.join(', ')}`, {
        fields: [{ field: 'permissions', problem: `unknown: ${unknown.join(', ')}` }],
      });
    }
    assertWithin(actor, permissions as Permission[], 'granting these permissions');
    const current = await this.bus.get('role', { key: name });
    const result = await this.bus.send(new ConfigureRoleCommand({ name, permissions }, actorOf(actor)));
    return {
      success: true,
      created: !current || current.deleted,
      changed: result.changed,
      record: customRoleView((await this.bus.get('role', { id: result.id }))!),
    };
  }

  async deleteRole(name: string, actor: OperatorContext) {
    if (Object.hasOwn(BUILT_IN_ROLES, name)) {
      throw new DomainError('validation_failed', `invalid request: ${name} is a built-in role and cannot be deleted`);
    }
    const holders = (await this.bus.list('operator'))
      .filter((row) => row.record.role === name && row.record.active)
      .map((row) => row.record.username);
    if (holders.length > 0) {
      throw new DomainError(
        'validation_failed',
        `invalid request: role ${name} is held by ${holders.join(', ')}; give them another role first`,
      );
    }
    const result = await this.bus.send(new DeleteRoleCommand(name, actorOf(actor)));
    return { success: true, changed: result.changed };
  }

  private async assertMayGrant(actor: OperatorContext, role: string, doing = `granting role ${role}`): Promise<void> {
    const builtIn = BUILT_IN_ROLES[role];
    let permissions: readonly string[];
    if (builtIn) permissions = builtIn;
    else {
      const row = await this.bus.get('role', { key: role });
      if (!row || row.deleted) throw new DomainError('validation_failed', `invalid request: no role ${role}`);
      permissions = row.record.permissions;
    }
    assertWithin(actor, permissions.filter(isPermission), doing);
  }
}

function builtInRoleViews() {
  return Object.entries(BUILT_IN_ROLES).map(([name, permissions]) => ({
    id: null as string | null,
    name,
    permissions: [...permissions],
    builtIn: true,
    deleted: false,
    updatedAt: null as string | null,
  }));
}
