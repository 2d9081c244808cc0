import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * One process per embedded data directory. PGlite has no lock of its own: a second process (a
 * second server, or the statement/replay CLI) that opens the same files writes beside the first,
 * and after the next crash the store no longer opens.
 *
 * The lock is a file created exclusively (O_EXCL) beside the directory, naming its holder's pid and
 * host. A live holder makes a second opener fail at once with its pid. A holder that died without
 * releasing it (SIGKILL) leaves the file behind: a lock whose pid no longer runs on this host is taken
 * over (renamed away first, so of two openers racing for it only one removes it).
 *
 * Written here rather than with proper-lockfile: that library detects staleness by a heartbeat, so a
 * restart after SIGKILL waits out the stale period, and an event loop blocked past it (PGlite's
 * first open under load) declares a live server's lock compromised. The pid test has neither issue;
 * it needs the holder on the same host, which an embedded data directory is.
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
}

export interface DataDirLock {
  release(): Promise<void>;
}

/** Takeover attempts of a dead holder's lock before giving up (each one is a few syscalls). */
const MAX_TAKEOVERS = 3;

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockPath = `${dataDir}.lock`;
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt <= MAX_TAKEOVERS; attempt++) {
    if (tryCreate(lockPath, me)) return { release: async () => release(lockPath, me) };
    const holder = readHolder(lockPath);
    if (!holder) continue; // released meanwhile, or still being written: try again
    if (holder.host !== me.host || isAlive(holder.pid)) throw new DataDirLockedError(dataDir, holder.pid);
    const moved = `${lockPath}.stale-${process.pid}`;
    try {
      renameSync(lockPath, moved);
    } catch {
      continue; // another opener took it over first
    }
    rmSync(moved, { force: true });
  }
  throw new DataDirLockedError(dataDir, readHolder(lockPath)?.pid);
}

function tryCreate(lockPath: string, holder: Holder): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(holder));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Removes the lock only while it is still ours. */
function release(lockPath: string, me: Holder): void {
  const holder = readHolder(lockPath);
  if (holder && holder.pid === me.pid && holder.since === me.since) rmSync(lockPath, { force: true });
}

function readHolder(lockPath: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.since === 'string'
      ? (parsed as Holder)
      : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
