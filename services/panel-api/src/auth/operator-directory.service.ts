import { Inject, Injectable } from '@nestjs/common';
import { EVENT_CATALOG, type EventData } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { BUILT_IN_ROLES, isPermission, type Permission } from './permissions.js';

export type OperatorRecord = EventData<'OperatorConfigured'>;

/** Operators and their effective permissions, from the read models. */
@Injectable()
export class OperatorDirectory {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async byUsername(username: string): Promise<OperatorRecord | undefined> {
    const { rows } = await this.db.query<{ record: unknown }>(
      'select record from rm_operators where lower(username) = lower($1)',
      [username],
    );
    return rows[0] ? EVENT_CATALOG.OperatorConfigured.schema.parse(rows[0].record) : undefined;
  }

  async byId(operatorId: string): Promise<OperatorRecord | undefined> {
    const { rows } = await this.db.query<{ record: unknown }>(
      'select record from rm_operators where operator_id = $1',
      [operatorId],
    );
    return rows[0] ? EVENT_CATALOG.OperatorConfigured.schema.parse(rows[0].record) : undefined;
  }

  /** Built-in roles first (they cannot be redefined), then custom roles; an unknown role has none. */
  async permissionsOf(role: string): Promise<Permission[]> {
    const builtIn = BUILT_IN_ROLES[role];
    if (builtIn) return [...builtIn];
    const { rows } = await this.db.query<{ record: unknown }>('select record from rm_roles where name = $1', [role]);
    if (!rows[0]) return [];
    const record = EVENT_CATALOG.RoleConfigured.schema.parse(rows[0].record);
    return record.deleted ? [] : record.permissions.filter(isPermission);
  }
}
