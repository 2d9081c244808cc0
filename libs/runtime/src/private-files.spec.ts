import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrivateFileRefusedError, writePrivateFile } from './private-files.js';
import { ConfigError, loadRuntimeConfig } from './runtime-config.js';

describe('private files in the data directory', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'tg-private-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates a first start data directory 0700 and its sealing key 0600', () => {
    const dataDir = join(root, 'data');
    loadRuntimeConfig({ DATA_DIR: dataDir });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
  });

  it('never writes through a planted symbolic link, dangling or not, and leaves its target alone', () => {
    const victim = join(root, 'victim');
    writeFileSync(victim, 'precious\n');
    const planted = join(root, 'admin-password');
    symlinkSync(victim, planted);
    expect(() => writePrivateFile(planted, 'hunter2\n')).toThrow(PrivateFileRefusedError);
    expect(() => writePrivateFile(planted, 'hunter2\n')).toThrow(/admin-password: it is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(planted).isSymbolicLink()).toBe(true);
    // A dangling link would otherwise create its target.
    const dangling = join(root, 'dangling');
    symlinkSync(join(root, 'created-by-link'), dangling);
    expect(() => writePrivateFile(dangling, 'x')).toThrow(PrivateFileRefusedError);
    expect(existsSync(join(root, 'created-by-link'))).toBe(false);
  });

  it('refuses a hard-linked file and a directory, and writes a regular file exactly 0600', () => {
    const victim = join(root, 'victim');
    writeFileSync(victim, 'precious\n');
    linkSync(victim, join(root, 'hard'));
    expect(() => writePrivateFile(join(root, 'hard'), 'x')).toThrow(/hard link/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    mkdirSync(join(root, 'dir'));
    expect(() => writePrivateFile(join(root, 'dir'), 'x')).toThrow(PrivateFileRefusedError);
    writeFileSync(join(root, 'old'), 'a much longer old content', { mode: 0o644 });
    writePrivateFile(join(root, 'old'), 'new');
    expect(readFileSync(join(root, 'old'), 'utf8')).toBe('new');
    expect(statSync(join(root, 'old')).mode & 0o777).toBe(0o600);
  });

  it('refuses to start when the sealing key is a planted link', () => {
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    symlinkSync(join(root, 'elsewhere'), join(dataDir, 'secret.key'));
    expect(() => loadRuntimeConfig({ DATA_DIR: dataDir })).toThrow(ConfigError);
    expect(existsSync(join(root, 'elsewhere'))).toBe(false);
  });
});
