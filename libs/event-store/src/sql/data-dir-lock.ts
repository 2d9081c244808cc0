import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * One process per embedded data directory. PGlite has no lock of its own: a second process (a
 * second server, or the statement/replay CLI) that opens the same files writes beside the first,
 * and after the next crash the store no longer opens.
 *
 * The lock is a file beside the directory naming its holder by what the kernel knows of it: the
 * pid, the process's start time (field 22 of /proc/<pid>/stat, clock ticks since boot) and the
 * kernel's boot id. A pid alone cannot tell a live holder from its successor: in a container the
 * server is pid 1 again after a crash, and a dead holder's pid is reused by unrelated processes. A
 * pid, a start tick and a boot id together name one process for the lifetime of a kernel, so the
 * lock is held exactly while that process lives and cannot outlive it: a lock naming a process
 * that is gone, a pid now running something started at another tick, this very process's own pid,
 * or a previous boot is stale and taken over. So is a file that does not parse: the lock is
 * written whole to a private file first and linked into place (link() fails if the name exists),
 * so a live holder's lock is never seen half-written, and an empty or garbled file is the trace of
 * a crash or of something else, never of a holder. The host name is recorded for people; it decides
 * nothing (a container gets a new one on every restart while its kernel stays the same).
 *
 * Chosen over an OS lock held on a descriptor (flock/fcntl), which Node cannot take without a native
 * addon (a compiler in every image, install scripts) or a helper process; and over proper-lockfile,
 * whose heartbeat makes a restart after SIGKILL wait out the stale period and declares a live
 * server's lock compromised when PGlite's first open blocks the event loop past it. Where /proc is
 * missing (not Linux) the pid alone is checked, as before.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | undefined,
  ) {
    super(
      `the data directory ${dataDir} is in use by ${holderPid ? `process ${holderPid}` : 'another process'}` +
        ' (stop it first: one process at a time may open an embedded store)',
    );
    this.name = 'DataDirLockedError';
  }
}

interface Holder {
  pid: number;
  host: string;
  since: string;
  /** Start time of the process in clock ticks since boot; absent where /proc is missing. */
  startTicks?: number;
  /** The kernel's boot id; absent where /proc is missing. */
  bootId?: string;
}

export interface DataDirLock {
  release(): Promise<void>;
}

/** Takeover attempts of a stale lock before giving up (each one is a few syscalls). */
const MAX_TAKEOVERS = 3;
/** Lock paths this process holds: a second open in the same process is refused like any other. */
const heldHere = new Set<string>();

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockPath = `${dataDir}.lock`;
  if (heldHere.has(lockPath)) throw new DataDirLockedError(dataDir, process.pid);
  const me: Holder = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    ...processIdentity(process.pid),
  };
  for (let attempt = 0; attempt <= MAX_TAKEOVERS; attempt++) {
    if (tryCreate(lockPath, me)) {
      heldHere.add(lockPath);
      return {
        release: async () => {
          heldHere.delete(lockPath);
          release(lockPath, me);
        },
      };
    }
    const holder = readHolder(lockPath);
    if (holder === 'missing') continue; // released meanwhile: try again
    if (holder !== 'unreadable' && isAlive(holder)) throw new DataDirLockedError(dataDir, holder.pid);
    const moved = `${lockPath}.stale-${process.pid}`;
    try {
      renameSync(lockPath, moved);
    } catch {
      continue; // another opener took it over first
    }
    rmSync(moved, { force: true });
  }
  const holder = readHolder(lockPath);
  throw new DataDirLockedError(dataDir, typeof holder === 'object' ? holder.pid : undefined);
}

/** Creates the lock whole or not at all: written privately, then linked to its name. */
function tryCreate(lockPath: string, holder: Holder): boolean {
  const draft = `${lockPath}.${process.pid}.draft`;
  writeFileSync(draft, JSON.stringify(holder), { mode: 0o600 });
  try {
    linkSync(draft, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** Removes the lock only while it is still ours. */
function release(lockPath: string, me: Holder): void {
  const holder = readHolder(lockPath);
  if (typeof holder === 'object' && holder.pid === me.pid && holder.since === me.since) {
    rmSync(lockPath, { force: true });
  }
}

function readHolder(lockPath: string): Holder | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    return Number.isSafeInteger(parsed.pid) &&
      (parsed.pid as number) > 0 &&
      typeof parsed.host === 'string' &&
      typeof parsed.since === 'string'
      ? (parsed as Holder)
      : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** Whether the process the lock names still runs: the same pid, started at the same tick, this boot. */
export function isAlive(holder: Holder): boolean {
  // This process does not hold it (heldHere says so), so a lock naming its pid names a predecessor.
  if (holder.pid === process.pid) return false;
  const now = processIdentity(holder.pid);
  const mine = processIdentity(process.pid);
  if (mine.bootId !== undefined && holder.bootId !== undefined) {
    if (holder.bootId !== mine.bootId) return false;
    if (now.startTicks === undefined) return false; // no such process
    return holder.startTicks === now.startTicks;
  }
  // No /proc here (or a lock written without it): the pid alone.
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The kernel's identity of a process: its start tick and the boot id, where /proc has them. */
export function processIdentity(pid: number): { startTicks?: number; bootId?: string } {
  let bootId: string;
  try {
    bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return {};
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: fields are counted after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[19]);
    return Number.isSafeInteger(startTicks) ? { startTicks, bootId } : { bootId };
  } catch {
    return { bootId };
  }
}
