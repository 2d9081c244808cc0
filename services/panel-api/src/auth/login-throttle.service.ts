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

  async assertNotLocked(subject: string): Promise<void> {
    const { rows } = await this.db.query<{ locked: boolean }>(
      'select locked_until > now() as locked from panel_login_failures where subject = $1',
      [subject.toLowerCase()],
    );
    if (rows[0]?.locked) throw new DomainError('account_locked', 'too many failed attempts; try again later');
  }

  async recordFailure(subject: string): Promise<void> {
    await this.db.query(
      `insert into panel_login_failures (subject, failures) values ($1, 1)
       on conflict (subject) do update set
         failures = case when panel_login_failures.locked_until < now() then 1 else panel_login_failures.failures + 1 end,
         updated_at = now()`,
      [subject.toLowerCase()],
    );
    await this.db.query(
      `update panel_login_failures set locked_until = now() + ($2::int * interval '1 millisecond'), failures = 0
       where subject = $1 and failures >= $3`,
      [subject.toLowerCase(), this.settings.lockoutMs, this.settings.maxFailedAttempts],
    );
  }

  async recordSuccess(subject: string): Promise<void> {
    await this.db.query('delete from panel_login_failures where subject = $1', [subject.toLowerCase()]);
  }
}
