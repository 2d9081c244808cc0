import { PGlite } from '@electric-sql/pglite';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * A freshly initialised PGlite data directory as a tarball, made once per machine and PGlite
 * version, which an empty store unpacks instead of running initdb. initdb is most of an empty
 * store's first start (seconds of WASM), and its peak memory stays with the process for good (a
 * WebAssembly memory never shrinks); unpacking the same files costs a fraction of both. Every
 * store made from it is what initdb would have made, but for the cluster's system identifier, which
 * only replication reads, and without the template databases (UNUSED_DATABASES).
 *
 * The file sits in node_modules/.cache (`npm run build` makes it; see scripts/pglite-template.mjs).
 * Where it cannot be read or written (a read-only image without it), the store runs initdb as before:
 * the template is a shortcut, never a requirement.
 */
const require = createRequire(import.meta.url);

export function pgliteTemplatePath(): string {
  // The package exports no package.json: find its folder from its entry point.
  const entry = require.resolve('@electric-sql/pglite');
  const marker = join('node_modules', '@electric-sql', 'pglite');
  const packageDir = entry.slice(0, entry.lastIndexOf(marker) + marker.length);
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  // <root>/node_modules/@electric-sql/pglite → <root>/node_modules/.cache/transfergate
  const nodeModules = dirname(dirname(packageDir));
  // "postgres-only": the templates' databases are left out (makePgliteTemplate); the name differs from
  // the first templates' so that a machine holding one of those makes the new one.
  return join(nodeModules, '.cache', 'transfergate', `pglite-${version}-postgres-only.tar.gz`);
}

/** The template's path, made now if this machine has none yet; undefined when it can be neither read nor made. */
export async function pgliteTemplate(): Promise<string | undefined> {
  const path = pgliteTemplatePath();
  try {
    if (!existsSync(path)) await makePgliteTemplate(path);
    return path;
  } catch {
    return undefined;
  }
}

/**
 * Databases initdb makes that an embedded store never opens: PGlite connects to `postgres`, and
 * nothing here creates a database (the only use of a template). Each is about 300 of the template's
 * 972 files and 7 MB of every store; unpacking the 372 left takes 0.21-0.29 s instead of 0.34-0.40.
 */
const UNUSED_DATABASES = ['template0', 'template1'] as const;

/** Runs initdb once in memory and keeps the result; written aside and renamed, so readers never see half a file. */
export async function makePgliteTemplate(path = pgliteTemplatePath()): Promise<string> {
  const db = await PGlite.create();
  try {
    for (const name of UNUSED_DATABASES) {
      // A template database cannot be dropped until it stops being one; DROP DATABASE runs alone.
      await db.query(`alter database ${name} is_template false`);
      await db.query(`drop database ${name}`);
    }
    const tarball = await db.dumpDataDir('gzip');
    mkdirSync(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
    renameSync(partial, path);
    return path;
  } finally {
    await db.close();
  }
}

/**
 * Makes `dataDir` an initialised data directory from the template, for the caller holding the data
 * directory's lock. Unpacked here rather than by PGlite's `loadDataDir`: PGlite reads the whole
 * tarball into JavaScript buffers (40 MB inflated, each file copied again) and writes it through
 * its WASM file system, which cost the start about a second of CPU and left ~45 MB of freed but
 * unreturned heap in the process for good; this streams it to disk in small chunks. The files go
 * to a sibling directory renamed into place at the end, so a start killed halfway leaves no
 * half-made store that would pass for an initialised one.
 *
 * Returns false, touching nothing, when there is no template or `dataDir` holds files already
 * (PGlite then decides, as without a template).
 */
export async function unpackPgliteTemplate(dataDir: string): Promise<boolean> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const template = await pgliteTemplate();
  if (!template) return false;
  const unpacking = `${dataDir}.unpacking`;
  rmSync(unpacking, { recursive: true, force: true });
  mkdirSync(unpacking, { recursive: true, mode: 0o700 });
  try {
    // Loaded here: only an empty store's first start needs it.
    const { extract } = await import('tar');
    // The tarball names its entries from the root ("/base/1/…"), which tar strips, saying so
    // (TAR_ENTRY_INFO); anything else it reports is a file not written, and fails the unpacking.
    const problems: string[] = [];
    // Synchronous: about a thousand small files, each an open, a write, a close (and a futimes
    // for the archive's mtime, which PostgreSQL never reads: skipped). Asynchronous, every call
    // waits its turn in libuv's thread pool and the start sat idle for 1-2 s; synchronous, the
    // unpacking takes 0.3-0.5 s (measured on the 2-core machine). Nothing else is served yet:
    // the store opens before the server listens.
    extract({
      file: template,
      cwd: unpacking,
      sync: true,
      noMtime: true,
      preserveOwner: false,
      onwarn: (code, message) => {
        if (code !== 'TAR_ENTRY_INFO') problems.push(`${code}: ${String(message)}`);
      },
    });
    if (problems.length > 0) throw new Error(`unpacking ${template}: ${problems.slice(0, 3).join('; ')}`);
    if (!isInitialisedDataDir(unpacking)) throw new Error(`${template} holds no initialised data directory`);
    if (existsSync(dataDir)) rmdirSync(dataDir); // empty (checked above); rmdir refuses otherwise
    renameSync(unpacking, dataDir);
    return true;
  } catch {
    rmSync(unpacking, { recursive: true, force: true });
    return false;
  }
}

/** A data directory PGlite has initialised before (initdb writes PG_VERSION first of all). */
export function isInitialisedDataDir(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}
