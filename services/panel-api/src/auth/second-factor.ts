import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { DomainError } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { PANEL_SETTINGS, type PanelSettings } from '../panel.settings.js';

const PURPOSE = 'transfergate-2fa-challenge';
const CHALLENGE_TTL_SECONDS = 5 * 60;

/**
 * The step between a correct password and a session when 2FA is on: a short-lived signed challenge
 * naming the operator, exchanged at /api/auth/2fa/verify for tokens together with a valid code.
 */
@Injectable()
export class SecondFactor {
  constructor(
    @Inject(PANEL_SETTINGS) private readonly settings: PanelSettings,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async challenge(operatorId: string): Promise<{ twoFactorRequired: true; challengeToken: string }> {
    const challengeToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(operatorId)
      .setJti(randomUUID())
      .setAudience(PURPOSE)
      .setIssuedAt()
      .setExpirationTime(`${CHALLENGE_TTL_SECONDS}s`)
      .sign(this.settings.jwtKey);
    return { twoFactorRequired: true, challengeToken };
  }

  /** The operator a challenge was issued to; refuses expired or forged ones. */
  async operatorOf(challengeToken: string): Promise<string> {
    return (await this.read(challengeToken)).operatorId;
  }

  /** Whether a verify with this challenge has already opened a session. */
  async isConsumed(challengeToken: string): Promise<boolean> {
    const { jti } = await this.read(challengeToken);
    const { rows } = await this.db.query('select 1 from panel_used_challenges where jti = $1', [jti]);
    return rows.length > 0;
  }

  /**
   * Marks a challenge used, atomically (its id is the key): of two verifies racing with one
   * challenge only one opens a session. Used ids are kept until the challenge would have expired.
   */
  async consume(challengeToken: string): Promise<void> {
    const { jti, expiresAt } = await this.read(challengeToken);
    await this.db.query('delete from panel_used_challenges where expires_at < now()');
    const { rows } = await this.db.query(
      `insert into panel_used_challenges (jti, expires_at) values ($1, $2::timestamptz)
       on conflict (jti) do nothing returning jti`,
      [jti, expiresAt],
    );
    if (rows.length !== 1) {
      throw new DomainError('invalid_token', 'the two-factor challenge was already used; log in again');
    }
  }

  private async read(challengeToken: string): Promise<{ operatorId: string; jti: string; expiresAt: string }> {
    try {
      const { payload } = await jwtVerify(challengeToken, this.settings.jwtKey, {
        audience: PURPOSE,
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') {
        throw new Error('claims');
      }
      return { operatorId: payload.sub, jti: payload.jti, expiresAt: new Date(payload.exp * 1000).toISOString() };
    } catch {
      throw new DomainError('invalid_token', 'the two-factor challenge is invalid or expired; log in again');
    }
  }
}
