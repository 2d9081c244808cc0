import { setTimeout as sleep } from 'node:timers/promises';
import { generate } from 'otplib';

const TOTP_PERIOD_S = 30;

/**
 * The operator's authenticator app: real TOTP codes from the enrolled secret. The server accepts the
 * steps current-1 .. current+1 and never a step at or before the last one it accepted, so `next()`
 * hands out increasing steps in that window (waiting for the next period only when all three are
 * used) and the tests need not wait 30 s between codes.
 */
export class Authenticator {
  private lastStep = -1;
  constructor(readonly secret: string) {}

  static of(otpauthUrl: string): Authenticator {
    const secret = new URL(otpauthUrl).searchParams.get('secret');
    if (!secret) throw new Error('no secret in the otpauth URL');
    return new Authenticator(secret);
  }

  async next(): Promise<string> {
    for (;;) {
      const now = Date.now() / 1000;
      const current = Math.floor(now / TOTP_PERIOD_S);
      const secondsLeft = (current + 1) * TOTP_PERIOD_S - now;
      // The previous step stays valid only until this period ends: skip it when that is close.
      const step = Math.max(this.lastStep + 1, secondsLeft > 5 ? current - 1 : current);
      if (step <= current + 1) {
        this.lastStep = step;
        return generate({ secret: this.secret, epoch: step * TOTP_PERIOD_S });
      }
      await sleep(Math.ceil(secondsLeft * 1000) + 200);
    }
  }
}
