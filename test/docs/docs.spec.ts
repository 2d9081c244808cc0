import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { RUNTIME_ENV_VARIABLES } from '../../libs/runtime/src/runtime-config.js';
import { TRANSPORT_ENV_VARIABLES } from '../../libs/messaging/src/transport.js';
import { ERROR_CODES } from '../../libs/contracts/src/errors/error-codes.js';

/**
 * The documentation checks: README.md and docs/ link only to files and headings that exist, name
 * only repository paths that exist, list every environment variable the code reads in the
 * configuration table of docs/operations.md, and no tracked file outside the tests tells the
 * project's history instead of the reason for the code. Every failure names the file and line.
 */
const ROOT = resolve('.');

function tracked(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(ROOT, file)));
}

const FILES = tracked();
const DOCS = FILES.filter((file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')));

interface Line {
  number: number;
  text: string;
}

/** The lines of a markdown file outside fenced code blocks. */
function proseLines(file: string): Line[] {
  const lines: Line[] = [];
  let fence: string | undefined;
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
      if (marker && (fence === undefined || marker.startsWith(fence))) {
        fence = fence === undefined ? marker : undefined;
        return;
      }
      if (fence === undefined) lines.push({ number: index + 1, text });
    });
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(file)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(text)?.[1];
    if (!heading) continue;
    const slug = heading
      .replace(/<[^>]*>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Markdown links outside code spans: [text](target). */
function linksOf(file: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = [];
  for (const { number, text } of proseLines(file)) {
    const prose = text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      links.push({ line: number, target: match[1]! });
  }
  return links;
}

/** Problems with one link from `file`, or undefined when it resolves. */
function linkProblem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: …: not ours to check
  const [path = '', anchor] = target.split('#', 2);
  const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
  if (resolved.startsWith('..')) return `${target} leaves the repository`;
  if (!existsSync(join(ROOT, resolved))) return `${target}: no file ${resolved}`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md') || statSync(join(ROOT, resolved)).isDirectory()) {
    return `${target}: an anchor into ${resolved}, which is not a markdown file`;
  }
  return anchorsOf(resolved).has(anchor) ? undefined : `${target}: no heading #${anchor} in ${resolved}`;
}

/** Repository paths named in code spans (`services/ledger/src/...`) that do not exist. */
function missingPaths(file: string): string[] {
  const problems: string[] = [];
  for (const { number, text } of proseLines(file)) {
    for (const match of text.matchAll(/`((?:libs|services|apps|test|bench|deploy|scripts|docs)\/[^`\s]*)`/g)) {
      const path = match[1]!;
      // Globs, placeholders and build or bench output are not files of the repository.
      if (/[*<>{}…]/.test(path) || /(^|\/)(dist|node_modules)\/|^bench\/out\//.test(path)) continue;
      if (!existsSync(join(ROOT, path))) problems.push(`${file}:${number}: names ${path}, which does not exist`);
    }
  }
  return problems;
}

/**
 * Files whose `process.env.X` is not configuration: the callback verification example an integrator
 * runs (its CALLBACK_SECRET and PORT are the example's own).
 */
const NOT_CONFIGURATION = new Set(['libs/contracts/src/openapi/callback-verification.ts']);

/** Every environment variable the code of libs/, services/ and apps/ reads, with where it is read. */
function environmentReads(): Map<string, string> {
  const reads = new Map<string, string>();
  const sources = FILES.filter(
    (file) =>
      /^(libs|services|apps)\//.test(file) &&
      /\.(ts|tsx|mts|mjs|js|cjs)$/.test(file) &&
      !/\.spec\.|\/test\//.test(file) &&
      !NOT_CONFIGURATION.has(file),
  );
  for (const file of sources) {
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((text, index) => {
        for (const match of text.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g)) {
          const name = match[1] ?? match[2]!;
          if (!reads.has(name)) reads.set(name, `${file}:${index + 1}`);
        }
        // const { PORT, HOST } = process.env
        for (const match of text.matchAll(/\{([^}]*)\}\s*=\s*(?:process\.)?env\b/g)) {
          for (const name of match[1]!.match(/\b[A-Z][A-Z0-9_]+\b/g) ?? []) {
            if (!reads.has(name)) reads.set(name, `${file}:${index + 1}`);
          }
        }
      });
  }
  for (const name of RUNTIME_ENV_VARIABLES) if (!reads.has(name)) reads.set(name, 'libs/runtime/src/runtime-config.ts');
  for (const name of TRANSPORT_ENV_VARIABLES) if (!reads.has(name)) reads.set(name, 'libs/messaging/src/transport.ts');
  return reads;
}

/** The variables named in the first column of the table under "## Configuration" in docs/operations.md. */
function configurationTable(): Set<string> {
  const text = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  const start = text.indexOf('\n## Configuration\n');
  if (start < 0) throw new Error('docs/operations.md: no "## Configuration" section');
  const next = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, next < 0 ? undefined : next);
  const names = new Set<string>();
  for (const row of section.split('\n').filter((line) => line.startsWith('|'))) {
    const first = row.split('|')[1] ?? '';
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]!);
  }
  return names;
}

/** Process history where a reason belongs: issue numbers and rounds of work. */
const HISTORY = /issue [0-9]+|[a-z-]+(th|st|nd|rd) round|round [0-9]+/i;

/** Tracked files the history rule covers: everything but the tests and binary or generated files. */
function historyCandidates(): string[] {
  return FILES.filter(
    (file) =>
      !/^test\/|\/test\/|\.spec\.[a-z]+$/.test(file) &&
      !/\.(png|jpe?g|gif|ico|woff2?|ttf|gz|tgz|br|zip|pdf|xlsx)$/i.test(file) &&
      file !== 'package-lock.json',
  );
}

describe('documentation', () => {
  it('covers README.md and docs/', () => {
    expect(DOCS).toContain('README.md');
    expect(DOCS).toContain('docs/operations.md');
    expect(DOCS).toContain('docs/architecture.md');
  });

  it('links only to files and headings that exist', () => {
    const problems = DOCS.flatMap((file) =>
      linksOf(file).flatMap(({ line, target }) => {
        const problem = linkProblem(file, target);
        return problem ? [`${file}:${line}: ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('names only repository paths that exist', () => {
    expect(DOCS.flatMap(missingPaths)).toEqual([]);
  });

  it('lists every environment variable the code reads in the configuration table of docs/operations.md', () => {
    const table = configurationTable();
    const reads = environmentReads();
    expect(reads.size).toBeGreaterThan(20);
    const missing = [...reads].filter(([name]) => !table.has(name)).map(([name, at]) => `${name} (read at ${at})`);
    expect(missing).toEqual([]);
  });

  it('lists every error code with its HTTP status in docs/integrators.md', () => {
    const rows = new Map<string, string>();
    readFileSync(join(ROOT, 'docs/integrators.md'), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const row = /^\|\s*`([a-z_]+)`\s*\|\s*(\d{3})\s*\|/.exec(line);
        if (row) rows.set(row[1]!, `${row[2]} (docs/integrators.md:${index + 1})`);
      });
    const wrong = Object.entries(ERROR_CODES)
      .filter(([code, status]) => !rows.get(code)?.startsWith(String(status)))
      .map(([code, status]) => `${code} ${status}: ${rows.get(code) ?? 'not in the table'}`);
    expect(wrong).toEqual([]);
  });

  it('keeps the README a front door of at most 400 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect({ file: 'README.md', lines, atMost400: lines <= 400 }).toEqual({
      file: 'README.md',
      lines,
      atMost400: true,
    });
  });

  it('tells reasons, not history, in every tracked file outside the tests', () => {
    const problems: string[] = [];
    for (const file of historyCandidates()) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      if (text.includes('\0')) continue;
      text.split('\n').forEach((line, index) => {
        const found = HISTORY.exec(line);
        if (found) problems.push(`${file}:${index + 1}: "${found[0]}" in: ${line.trim().slice(0, 160)}`);
      });
    }
    expect(problems).toEqual([]);
  });
});

describe('documentation checks', () => {
  it('find a missing file, a missing heading and a link out of the repository', () => {
    expect(linkProblem('README.md', 'docs/operations.md#configuration')).toBeUndefined();
    expect(linkProblem('README.md', 'docs/nothing-here.md')).toMatch(/no file docs\/nothing-here\.md/);
    expect(linkProblem('README.md', 'docs/operations.md#no-such-heading')).toMatch(/no heading #no-such-heading/);
    expect(linkProblem('docs/operations.md', '../../outside.md')).toMatch(/leaves the repository/);
  });

  it('know history when they see it, and a reason when they see one', () => {
    expect(HISTORY.test('since issue 15')).toBe(true);
    expect(HISTORY.test("the seventeenth round's change")).toBe(true);
    expect(HISTORY.test('before round 3')).toBe(true);
    expect(HISTORY.test('rounded half-up to the kuruş; round(amount) of the hash')).toBe(false);
  });
});
