import { Inject, Injectable } from '@nestjs/common';
import { SignJWT, jwtVerify } from 'jose';
import { DomainError } from '@transfergate/contracts';
import { PANEL_SETTINGS, type PanelSettings } from '../panel.settings.js';

const PURPOSE = 'transfergate-2fa-challenge';
const CHALLENGE_TTL_SECONDS = 5 * 60;

/**
 * The step between a correct password and a session when 2FA is on: a short-lived signed challenge
 * naming the operator, exchanged at /api/auth/2fa/verify for tokens together with a valid code.
 */
@Injectable()
export class SecondFactor {
  constructor(@Inject(PANEL_SETTINGS) private readonly settings: PanelSettings) {}

  async challenge(operatorId: string): Promise<{ twoFactorRequired: true; challengeToken: string }> {
    const challengeToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(operatorId)
      .setAudience(PURPOSE)
      .setIssuedAt()
      .setExpirationTime(`${CHALLENGE_TTL_SECONDS}s`)
      .sign(this.settings.jwtKey);
    return { twoFactorRequired: true, challengeToken };
  }

  /** The operator a challenge was issued to; refuses expired or forged ones. */
  async operatorOf(challengeToken: string): Promise<string> {
    try {
      const { payload } = await jwtVerify(challengeToken, this.settings.jwtKey, {
        audience: PURPOSE,
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string') throw new Error('sub');
      return payload.sub;
    } catch {
      throw new DomainError('invalid_token', 'the two-factor challenge is invalid or expired; log in again');
    }
  }
}
