import { Inject, Injectable } from '@nestjs/common';
import { requiresTwoFactor } from './two-factor-policy.js';
import { CommandBus } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import {
  DomainError,
  SetOperatorTwoFactorCommand,
  type ActorRef,
  type TokenResponse,
  type TwoFactorSetupResponse,
} from '@transfergate/contracts';
import { verifyPassword } from '@transfergate/security';
import type { RequestOrigin } from '@transfergate/runtime/http';
import { PANEL_SETTINGS, type PanelSettings } from '../panel.settings.js';
import { actorOf, type OperatorContext } from './decorators.js';
import { LoginThrottle } from './login-throttle.service.js';
import { OperatorDirectory, type OperatorRecord } from './operator-directory.service.js';
import { SecondFactor } from './second-factor.js';
import { SignInAudit } from './sign-in-audit.service.js';
import { SessionTokens } from './session-tokens.service.js';
import { TotpService } from './totp.service.js';

const SETUP_PURPOSE = 'transfergate-2fa-setup';
const SETUP_TTL_SECONDS = 10 * 60;
/** The same fixed scrypt hash login verifies against for unknown usernames (equal timing). */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** The setup token is signed for 10 minutes: operator id + sealed secret; nothing is stored before confirmation. */
export type TwoFactorSetup = TwoFactorSetupResponse;

const twoFactorSubject = (operatorId: string) => `2fa:${operatorId}`;
/** Binds a setup token to the password it was started under: a password change voids pending setups. */
const passwordFingerprint = (passwordHash: string) => createHash('sha256').update(passwordHash).digest('base64url');

/**
 * Operator 2FA flows: enrollment (init + confirm), the second login step, and disabling. Failed codes
 * count against the subject `2fa:<operatorId>` in LoginThrottle, so a code cannot be brute-forced.
 */
@Injectable()
export class TwoFactorService {
  /** Verifies under way, by challenge token (a request's lifetime: bounded by the requests in flight). */
  private readonly verifying = new Map<string, Promise<TokenResponse>>();

  constructor(
    private readonly operators: OperatorDirectory,
    private readonly throttle: LoginThrottle,
    private readonly tokens: SessionTokens,
    private readonly secondFactor: SecondFactor,
    private readonly totp: TotpService,
    private readonly commands: CommandBus,
    private readonly signIns: SignInAudit,
    @Inject(PANEL_SETTINGS) private readonly settings: PanelSettings,
  ) {}

  /** The operator behind an `Authorization: Bearer` header (same checks as PanelAuthGuard). */
  async operatorByBearer(authorization: string): Promise<{ operator: OperatorRecord; sessionId: string }> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw new DomainError('authentication_required', 'a bearer token is required');
    const claims = await this.tokens.verify(match[1]!);
    const operator = await this.operators.byId(claims.operatorId);
    if (!operator || !operator.active) throw new DomainError('invalid_token', 'the operator is not active');
    return { operator, sessionId: claims.sessionId };
  }

  /** The operator a username and password name, checked exactly like login (throttle, generic 401). */
  async operatorByPassword(username: string, password: string): Promise<OperatorRecord> {
    await this.throttle.reserveAttempt(username);
    const operator = await this.operators.byUsername(username);
    const passwordOk = await verifyPassword(password, operator?.passwordHash ?? DUMMY_HASH);
    if (!operator || !operator.active || !passwordOk) {
      await this.throttle.recordFailure(username);
      throw new DomainError('invalid_credentials', 'invalid username or password');
    }
    await this.throttle.recordSuccess(username);
    return operator;
  }

  /** A fresh secret for the operator, carried sealed in a signed setup token until confirmation. */
  async initSetup(operator: OperatorRecord, sessionId?: string): Promise<TwoFactorSetup> {
    this.assertDisabled(operator);
    const enrollment = await this.totp.enroll(operator.username);
    const setupToken = await new SignJWT({
      tss: enrollment.secretSealed,
      pwf: passwordFingerprint(operator.passwordHash),
      // The session that started the setup survives it; every other one ends when 2FA turns on.
      ...(sessionId ? { sid: sessionId } : {}),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(operator.operatorId)
      .setAudience(SETUP_PURPOSE)
      .setIssuedAt()
      .setExpirationTime(`${SETUP_TTL_SECONDS}s`)
      .sign(this.settings.jwtKey);
    return { otpauthUrl: enrollment.otpauthUrl, qrCodeDataUrl: enrollment.qrCodeDataUrl, setupToken };
  }

  /** A valid code for the secret in the setup token turns 2FA on (the ledger records the sealed secret). */
  async confirmSetup(
    setupToken: string,
    code: string,
    origin: RequestOrigin,
  ): Promise<{ success: true; twoFactorEnabled: true }> {
    const setup = await this.readSetupToken(setupToken);
    await this.throttle.reserveAttempt(twoFactorSubject(setup.operatorId));
    const operator = await this.operators.byId(setup.operatorId);
    if (!operator || !operator.active || passwordFingerprint(operator.passwordHash) !== setup.passwordFingerprint) {
      throw new DomainError('invalid_token', 'the setup token is no longer valid; start the setup again');
    }
    // Checked again here: a setup started before 2FA was enabled must not replace the secret.
    this.assertDisabled(operator);
    await this.assertCode(setup.operatorId, setup.secretSealed, code);
    const actor: ActorRef = {
      source: 'panel',
      operatorId: setup.operatorId,
      ip: origin.ip,
      requestId: origin.requestId,
    };
    await this.commands.execute(new SetOperatorTwoFactorCommand(setup.operatorId, setup.secretSealed, actor));
    await this.tokens.revokeOperatorSessions(setup.operatorId, 'two-factor enabled', setup.sessionId);
    return { success: true, twoFactorEnabled: true };
  }

  /**
   * The second login step: a login challenge plus a valid, unused code open a session. Both outcomes
   * go to the audit log (a wrong code against a valid challenge is someone holding the password).
   */
  async verifyChallenge(challengeToken: string, code: string, origin: RequestOrigin): Promise<TokenResponse> {
    // A double-click sends the same verify several times at once. Each would reserve an attempt
    // (five parallel reservations lock the second factor) and all but one would fail as a replayed
    // code. Instead they wait for the first: when it opened a session they answer "already used",
    // counting nothing; when it failed, each is tried on its own.
    const first = this.verifying.get(challengeToken);
    if (first) {
      const opened = await first.then(
        () => true,
        () => false,
      );
      if (opened) throw challengeAlreadyUsed();
      return this.verifyChallenge(challengeToken, code, origin);
    }
    const attempt = this.verifyOnce(challengeToken, code, origin);
    this.verifying.set(challengeToken, attempt);
    try {
      return await attempt;
    } finally {
      if (this.verifying.get(challengeToken) === attempt) this.verifying.delete(challengeToken);
    }
  }

  private async verifyOnce(challengeToken: string, code: string, origin: RequestOrigin): Promise<TokenResponse> {
    const operatorId = await this.secondFactor.operatorOf(challengeToken);
    // A click that arrives after the first one's session was opened (or at another process).
    if (await this.secondFactor.isConsumed(challengeToken)) throw challengeAlreadyUsed();
    await this.throttle.reserveAttempt(twoFactorSubject(operatorId));
    const operator = await this.operators.byId(operatorId);
    if (!operator || !operator.active || !operator.totpSecretSealed) {
      throw new DomainError('invalid_token', 'the two-factor challenge is no longer valid; log in again');
    }
    try {
      await this.assertCode(operatorId, operator.totpSecretSealed, code);
    } catch (error) {
      await this.signIns.record('second_factor_failed', operator.username, operatorId, origin);
      throw error;
    }
    // A challenge opens one session: a second verify with it (even with another valid code) is refused.
    await this.secondFactor.consume(challengeToken);
    await this.signIns.record('second_factor_verified', operator.username, operatorId, origin);
    return this.tokens.open(operatorId);
  }

  /** Turning 2FA off needs both the password and a current code, even with a valid session. */
  async disable(
    context: OperatorContext,
    password: string,
    code: string,
  ): Promise<{ success: true; twoFactorEnabled: false }> {
    const operator = await this.operators.byId(context.operatorId);
    if (!operator?.totpSecretSealed) {
      throw new DomainError('invalid_state_transition', 'two-factor authentication is not enabled');
    }
    if (requiresTwoFactor(operator)) {
      throw new DomainError('permission_denied', 'this account must keep two-factor authentication');
    }
    await this.throttle.reserveAttempt(operator.username);
    await this.throttle.reserveAttempt(twoFactorSubject(operator.operatorId));
    if (!(await verifyPassword(password, operator.passwordHash))) {
      await this.throttle.recordFailure(operator.username);
      throw new DomainError('invalid_credentials', 'the password is not correct');
    }
    await this.throttle.recordSuccess(operator.username);
    await this.assertCode(operator.operatorId, operator.totpSecretSealed, code);
    await this.commands.execute(new SetOperatorTwoFactorCommand(operator.operatorId, null, actorOf(context)));
    return { success: true, twoFactorEnabled: false };
  }

  private assertDisabled(operator: OperatorRecord): void {
    if (operator.totpSecretSealed) {
      throw new DomainError(
        'invalid_state_transition',
        'two-factor authentication is already enabled; disable it before setting it up again',
      );
    }
  }

  /** Verifies a code (replay-protected); a wrong one counts as a failure of `2fa:<operatorId>`. */
  private async assertCode(operatorId: string, secretSealed: string, code: string): Promise<void> {
    if (!(await this.totp.verify(operatorId, secretSealed, code))) {
      await this.throttle.recordFailure(twoFactorSubject(operatorId));
      throw new DomainError('invalid_two_factor_code', 'the two-factor code is not valid');
    }
    await this.throttle.recordSuccess(twoFactorSubject(operatorId));
  }

  private async readSetupToken(
    setupToken: string,
  ): Promise<{ operatorId: string; secretSealed: string; passwordFingerprint: string; sessionId?: string }> {
    try {
      const { payload } = await jwtVerify(setupToken, this.settings.jwtKey, {
        audience: SETUP_PURPOSE,
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.tss !== 'string' || typeof payload.pwf !== 'string') {
        throw new Error('claims');
      }
      return {
        operatorId: payload.sub,
        secretSealed: payload.tss,
        passwordFingerprint: payload.pwf,
        ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}),
      };
    } catch {
      throw new DomainError('invalid_token', 'the setup token is invalid or expired; start the setup again');
    }
  }
}

function challengeAlreadyUsed(): DomainError {
  return new DomainError(
    'two_factor_code_used',
    'this sign-in was already completed (a repeated verify of the same login); the session it opened stands',
  );
}
