import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { DomainError, type TokenResponse } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { PANEL_SETTINGS, type PanelSettings } from '../panel.settings.js';
import { OperatorDirectory } from './operator-directory.service.js';

export interface AccessClaims {
  operatorId: string;
  sessionId: string;
}

const ISSUER = 'transfergate-panel';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Short-lived access JWTs (jose, HS256) and opaque refresh tokens stored hashed. Every refresh
 * rotates the token; presenting a used one again revokes the whole session (token theft), and
 * logout revokes it too. Access tokens name their session, which the guard checks is not revoked.
 */
@Injectable()
export class SessionTokens {
  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(PANEL_SETTINGS) private readonly settings: PanelSettings,
    private readonly operators: OperatorDirectory,
  ) {}

  async open(operatorId: string): Promise<TokenResponse> {
    const sessionId = randomUUID();
    await this.db.query('insert into panel_sessions (session_id, operator_id) values ($1, $2)', [
      sessionId,
      operatorId,
    ]);
    return this.issue(operatorId, sessionId);
  }

  async refresh(refreshToken: string): Promise<TokenResponse> {
    const hash = sha256(refreshToken);
    // One statement claims the token: two concurrent refreshes cannot both succeed.
    const claimed = await this.db.query<{
      session_id: string;
      operator_id: string;
      revoked: boolean;
      expired: boolean;
    }>(
      `update panel_refresh_tokens t set used_at = now()
       from panel_sessions s
       where t.token_hash = $1 and t.used_at is null and s.session_id = t.session_id
       returning t.session_id::text, s.operator_id, s.revoked_at is not null as revoked, t.expires_at < now() as expired`,
      [hash],
    );
    const row = claimed.rows[0];
    if (!row) {
      const known = await this.db.query<{ session_id: string }>(
        'select session_id::text from panel_refresh_tokens where token_hash = $1',
        [hash],
      );
      if (known.rows[0]) {
        await this.revoke(known.rows[0].session_id, 'refresh token reused');
        throw new DomainError('refresh_token_reused', 'refresh token reused: the session is revoked');
      }
      throw new DomainError('invalid_token', 'unknown refresh token');
    }
    if (row.revoked || row.expired) throw new DomainError('invalid_token', 'the session has ended; log in again');
    await this.endSessionsIfInactive(row.operator_id);
    return this.issue(row.operator_id, row.session_id);
  }

  async revoke(sessionId: string, reason: string): Promise<void> {
    await this.db.query(
      'update panel_sessions set revoked_at = coalesce(revoked_at, now()), revoked_reason = coalesce(revoked_reason, $2) where session_id = $1',
      [sessionId, reason],
    );
  }

  /**
   * Ends every open session of an operator but `keep` (the one making the change, if any): after a
   * password change or reset, turning 2FA on, or a deactivation, old access and refresh tokens stop
   * working at once (access tokens are checked against their session on every request).
   */
  async revokeOperatorSessions(operatorId: string, reason: string, keep?: string): Promise<void> {
    await this.db.query(
      `update panel_sessions set revoked_at = now(), revoked_reason = $2
       where operator_id = $1 and revoked_at is null and ($3::uuid is null or session_id <> $3::uuid)`,
      [operatorId, reason, keep ?? null],
    );
  }

  /**
   * A deactivation that did not come through the panel (a provisioning file, another process) has
   * not ended the operator's sessions; the first token presented after it ends them all, so a later
   * reactivation cannot bring them back.
   */
  async endSessionsIfInactive(operatorId: string): Promise<void> {
    const operator = await this.operators.byId(operatorId);
    if (operator?.active) return;
    await this.revokeOperatorSessions(operatorId, 'operator deactivated');
    throw new DomainError('invalid_token', 'the operator is not active');
  }

  /** Verifies an access token and that its session is still open. */
  async verify(accessToken: string): Promise<AccessClaims> {
    let claims: AccessClaims;
    try {
      const { payload } = await jwtVerify(accessToken, this.settings.jwtKey, { issuer: ISSUER, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new Error('claims');
      claims = { operatorId: payload.sub, sessionId: payload.sid };
    } catch {
      throw new DomainError('invalid_token', 'the access token is invalid or expired');
    }
    const { rows } = await this.db.query<{ open: boolean }>(
      'select revoked_at is null as open from panel_sessions where session_id = $1',
      [claims.sessionId],
    );
    if (!rows[0]?.open) throw new DomainError('invalid_token', 'the session has ended; log in again');
    return claims;
  }

  private async issue(operatorId: string, sessionId: string): Promise<TokenResponse> {
    const accessToken = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(operatorId)
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${this.settings.accessTokenTtlSeconds}s`)
      .sign(this.settings.jwtKey);
    const refreshToken = randomBytes(32).toString('base64url');
    await this.db.query(
      `insert into panel_refresh_tokens (token_hash, session_id, expires_at)
       values ($1, $2, now() + ($3::int * interval '1 second'))`,
      [sha256(refreshToken), sessionId, this.settings.refreshTokenTtlSeconds],
    );
    return { accessToken, refreshToken, expiresIn: this.settings.accessTokenTtlSeconds };
  }
}
