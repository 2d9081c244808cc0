import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { PANEL_SETTINGS, type PanelSettings } from '../panel.settings.js';

/**
 * Locks a subject (a username, existing or not, or an operator's 2FA) after repeated failures.
 * Unknown usernames are counted the same way, so answers never reveal whether a username exists.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(PANEL_SETTINGS) private readonly settings: PanelSettings,
  ) {}

  /**
   * Takes one attempt for `subject` before the (slow) check it guards, atomically: the attempt is
   * counted as a failure up front, so N parallel attempts can never all be checked. Past the limit,
   * or while locked, it is refused without checking (`account_locked`). A success clears the count;
   * a failure confirms it and locks once the limit is reached.
   */
  async reserveAttempt(subject: string): Promise<void> {
    const { rows } = await this.db.query<{ failures: number; locked: boolean }>(
      `insert into panel_login_failures (subject, failures) values ($1, 1)
       on conflict (subject) do update set
         failures = case when panel_login_failures.locked_until <= now() then 1
                         else panel_login_failures.failures + 1 end,
         locked_until = case when panel_login_failures.locked_until <= now() then null
                             else panel_login_failures.locked_until end,
         updated_at = now()
       returning failures, coalesce(locked_until > now(), false) as locked`,
      [subject.toLowerCase()],
    );
    const row = rows[0]!;
    if (row.locked || row.failures > this.settings.maxFailedAttempts) {
      throw new DomainError('account_locked', 'too many failed attempts; try again later');
    }
  }

  /** The reserved attempt failed: lock once the limit is reached. */
  async recordFailure(subject: string): Promise<void> {
    await this.db.query(
      `update panel_login_failures set locked_until = now() + ($2::int * interval '1 millisecond'), updated_at = now()
       where subject = $1 and failures >= $3 and (locked_until is null or locked_until <= now())`,
      [subject.toLowerCase(), this.settings.lockoutMs, this.settings.maxFailedAttempts],
    );
  }

  async recordSuccess(subject: string): Promise<void> {
    await this.db.query('delete from panel_login_failures where subject = $1', [subject.toLowerCase()]);
  }
}
