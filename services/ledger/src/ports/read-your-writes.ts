import type { GlobalPosition } from '@transfergate/event-store';

/**
 * Read-your-writes as the write side needs it: hold a command's answer until the read models include
 * a position (its own append, or the state it answered from). Bounded by the read side (a projection
 * that does not get there in time is logged, never an error for a committed write). The read side
 * (LedgerProjectionRunner) implements it.
 */
export interface ReadYourWrites {
  awaitProjected(position: GlobalPosition): Promise<void>;
}

export const READ_YOUR_WRITES = Symbol('ReadYourWrites');
