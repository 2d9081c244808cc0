import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';

/**
 * Files that hold secrets (the sealing key, a generated admin password) in the data directory, and
 * the directory itself. Whoever can write into a directory the server later writes a secret into
 * could plant a link there: a symbolic link named `admin-password` pointing at a file of the
 * server's user makes a naive write overwrite that file with the password (or publish the password
 * where the link points). So a secret is written only into a regular file with a single name: a
 * symbolic link is never followed (O_NOFOLLOW), a hard-linked or special file is refused, and
 * nothing is truncated before those checks.
 */
export class PrivateFileRefusedError extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`refusing to write a secret to ${path}: ${why}; remove it and start again`);
    this.name = 'PrivateFileRefusedError';
  }
}

/** Creates the directory (and its missing parents) readable by this user only. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Writes `content` to `path` with mode 0600, refusing a symbolic link, hard link or special file. */
export function writePrivateFile(path: string, content: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the name is a symbolic link (O_NOFOLLOW); ENXIO/EISDIR: a socket, FIFO or directory.
    if (code === 'ELOOP') throw new PrivateFileRefusedError(path, 'it is a symbolic link');
    if (code === 'EISDIR' || code === 'ENXIO') throw new PrivateFileRefusedError(path, 'it is not a regular file');
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new PrivateFileRefusedError(path, 'it is not a regular file');
    if (stat.nlink > 1) throw new PrivateFileRefusedError(path, `it has ${stat.nlink} names (a hard link)`);
    ftruncateSync(fd, 0);
    // The mode given to open applies only when it creates the file, and under the umask: made exact.
    fchmodSync(fd, 0o600);
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
}
