import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { DomainError } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { SecretBox } from '@transfergate/security';
import { PANEL_SETTINGS, type PanelSettings } from '../panel.settings.js';
import { TOTP_REPLAY_SCHEMA } from './totp.schema.js';

/** Authenticator-app defaults (Google Authenticator, Authy, 1Password ...): RFC 6238 with SHA-1. */
const ISSUER = 'transfergate';
const PERIOD_SECONDS = 30;
const DIGITS = 6;
const ALGORITHM = 'sha1';
/** ±1 time step of clock drift: otplib takes the tolerance in seconds. */
const WINDOW_STEPS = 1;

export interface TotpEnrollment {
  /** The sealed secret: the only form that leaves this service. */
  secretSealed: string;
  otpauthUrl: string;
  qrCodeDataUrl: string;
}

/**
 * TOTP for operator 2FA (otplib v13): enrollment material, sealing at rest (SecretBox), and code
 * verification with replay protection. Plain secrets and codes never leave it and are never logged.
 */
@Injectable()
export class TotpService implements OnModuleInit {
  private readonly box: SecretBox;

  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(PANEL_SETTINGS) settings: PanelSettings,
  ) {
    this.box = new SecretBox(settings.secretKey);
  }

  async onModuleInit(): Promise<void> {
    await this.db.exec(TOTP_REPLAY_SCHEMA);
  }

  /** A fresh 160-bit secret, its otpauth:// URI and that URI as a QR code (PNG data URL). */
  async enroll(username: string): Promise<TotpEnrollment> {
    const secret = generateSecret({ length: 20 });
    const otpauthUrl = generateURI({
      issuer: ISSUER,
      label: username,
      secret,
      algorithm: ALGORITHM,
      digits: DIGITS,
      period: PERIOD_SECONDS,
    });
    // Loaded on the first enrolment: no start needs the QR encoder.
    const { default: QRCode } = await import('qrcode');
    const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl, { type: 'image/png', errorCorrectionLevel: 'M' });
    return { secretSealed: this.box.seal(secret), otpauthUrl, qrCodeDataUrl };
  }

  /**
   * True when `code` is valid for the sealed secret within ±1 step and its time step is later than
   * any code this operator used before with this secret; the step is then claimed, so the same code
   * (or an older one) is refused afterwards.
   */
  async verify(operatorId: string, secretSealed: string, code: string): Promise<boolean> {
    const secret = this.open(secretSealed);
    const fingerprint = createHash('sha256').update(secretSealed).digest('base64url');
    const { rows } = await this.db.query<{ time_step: string }>(
      'select time_step::text from panel_totp_used_steps where operator_id = $1 and secret_fingerprint = $2',
      [operatorId, fingerprint],
    );
    const lastStep = rows[0] ? Number(rows[0].time_step) : undefined;
    const epoch = Math.floor(Date.now() / 1000);
    // otplib refuses an afterTimeStep beyond the window; nothing could match then anyway.
    if (lastStep !== undefined && lastStep >= Math.floor(epoch / PERIOD_SECONDS) + WINDOW_STEPS) return false;
    let result: Awaited<ReturnType<typeof verify>>;
    try {
      result = await verify({
        secret,
        token: code,
        algorithm: ALGORITHM,
        digits: DIGITS,
        period: PERIOD_SECONDS,
        epoch,
        epochTolerance: WINDOW_STEPS * PERIOD_SECONDS,
        ...(lastStep !== undefined ? { afterTimeStep: lastStep } : {}),
      });
    } catch {
      return false; // a malformed token (length, characters): simply not valid
    }
    if (!result.valid || !('timeStep' in result)) return false;
    const claimed = await this.db.query(
      `insert into panel_totp_used_steps (operator_id, secret_fingerprint, time_step) values ($1, $2, $3::bigint)
       on conflict (operator_id) do update set
         secret_fingerprint = excluded.secret_fingerprint, time_step = excluded.time_step, updated_at = now()
       where panel_totp_used_steps.secret_fingerprint <> excluded.secret_fingerprint
          or panel_totp_used_steps.time_step < excluded.time_step
       returning operator_id`,
      [operatorId, fingerprint, result.timeStep],
    );
    return claimed.rows.length === 1;
  }

  private open(secretSealed: string): string {
    try {
      return this.box.open(secretSealed);
    } catch {
      throw new DomainError('internal_error', 'the two-factor secret cannot be read');
    }
  }
}
