import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ExpireTransactionCommand, isDomainError } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { EXPIRING_DEPOSITS_SQL } from '../read-models/schema.js';

export const EXPIRY_SWEEP_INTERVAL_MS = 15_000;
export const EXPIRY_SWEEP_BATCH = 200;

/** The due deposits, oldest expiry first: a range of the partial index `rm_transactions_due`. */
export const DUE_DEPOSITS_SQL = `select transaction_id::text id from rm_transactions
  where ${EXPIRING_DEPOSITS_SQL} and expires_at <= $1::timestamptz
  order by expires_at limit $2`;

/**
 * Expires deposits past their TTL. The due work is found in the read model (not held in timers),
 * so a restart loses nothing; the command re-checks state and time against the stream, so a deposit
 * approved meanwhile is left alone and two instances sweeping at once expire each deposit once.
 */
@Injectable()
export class DepositExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DepositExpiry');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    private readonly commands: CommandBus,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .catch((error) => {
          this.logger.error(`expiry sweep failed: ${String(error)}`);
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, EXPIRY_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** Expires up to one batch of due deposits; answers how many it expired. */
  async sweep(now = new Date()): Promise<number> {
    const { rows } = await this.db.query<{ id: string }>(DUE_DEPOSITS_SQL, [now.toISOString(), EXPIRY_SWEEP_BATCH]);
    let expired = 0;
    for (const row of rows) {
      try {
        await this.commands.execute(new ExpireTransactionCommand({ transactionId: row.id, now }));
        expired++;
      } catch (error) {
        // Approved, rejected or already expired since the read: the stream said no, nothing to do.
        if (!isDomainError(error)) throw error;
      }
    }
    return expired;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
