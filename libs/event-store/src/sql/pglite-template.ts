import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * A freshly initialised PGlite data directory as a tarball, made once per machine and PGlite
 * version, which an empty store unpacks instead of running initdb. initdb is most of an empty
 * store's first start (seconds of WASM), and its peak memory stays with the process for good (a
 * WebAssembly memory never shrinks); unpacking the same files costs a fraction of both. Every
 * store made from it is byte-for-byte what initdb would have made, but for the cluster's system
 * identifier, which only replication reads.
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
  return join(nodeModules, '.cache', 'transfergate', `pglite-${version}-datadir.tar.gz`);
}

/** The template, made now if this machine has none yet; undefined when it can be neither read nor made. */
export async function pgliteTemplate(): Promise<Blob | undefined> {
  const path = pgliteTemplatePath();
  try {
    if (!existsSync(path)) await makePgliteTemplate(path);
    return new Blob([readFileSync(path)]);
  } catch {
    return undefined;
  }
}

/** Runs initdb once in memory and keeps the result; written aside and renamed, so readers never see half a file. */
export async function makePgliteTemplate(path = pgliteTemplatePath()): Promise<string> {
  const db = await PGlite.create();
  try {
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

/** A data directory PGlite has initialised before (initdb writes PG_VERSION first of all). */
export function isInitialisedDataDir(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}
