import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm install` runs a dependency's install script only when package.json's `allowScripts` says so,
 * and warns about every one it does not cover. Every package of the lockfile that has an install
 * script has a decision (docs/operations.md, "Installing"): run for the two that check or fetch their
 * native binary, deny for the rest, so an install ends without the warning and runs no script nobody
 * reviewed.
 */
const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

/** `node_modules/@scope/name` or `…/node_modules/name` → the package's name. */
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('dependency install scripts', () => {
  it('every package with an install script has a decision in allowScripts, and no decision names a package without one', () => {
    const withScripts = [
      ...new Set(
        Object.entries(lock.packages)
          .filter(([path, entry]) => path.includes('node_modules/') && entry.hasInstallScript)
          .map(([path]) => nameOf(path)),
      ),
    ].sort();
    expect(withScripts.length).toBeGreaterThan(0);
    const decided = Object.keys(manifest.allowScripts ?? {}).map((key) => key.replace(/(.)@[^@]*$/, '$1'));
    expect([...decided].sort()).toEqual(withScripts);
  });

  it('runs only the scripts that install or check a native binary we use', () => {
    expect(manifest.allowScripts).toEqual({
      esbuild: true,
      '@swc/core': true,
      nx: false,
      protobufjs: false,
      '@parcel/watcher': false,
      '@scarf/scarf': false,
    });
  });
});
