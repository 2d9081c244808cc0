import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * deploy/monitoring: the Prometheus alert rules and the Grafana dashboard. Parsed and checked for
 * shape here; every transfergate_* series they name must be one the real app serves on /metrics (a
 * renamed metric would otherwise leave an alert that can never fire). Where promtool is installed
 * (Debian's `prometheus` package; .ci/run installs it, and CI requires it) it checks the rules too.
 */
const dir = join(import.meta.dirname, '..', '..', 'deploy', 'monitoring');
const rulesFile = join(dir, 'transfergate-alerts.yaml');
const dashboardFile = join(dir, 'transfergate-dashboard.json');
const operationsFile = join(import.meta.dirname, '..', '..', 'docs', 'operations.md');

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The sections of docs/operations.md by anchor, each with its text up to the next heading. */
function operationsSections(): Map<string, string> {
  const sections = new Map<string, string>();
  const parts = readFileSync(operationsFile, 'utf8').split(/^#{2,4} (.+)$/m);
  for (let i = 1; i < parts.length; i += 2) sections.set(anchorOf(parts[i]!), parts[i + 1] ?? '');
  return sections;
}

interface Rule {
  alert?: string;
  expr?: unknown;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rules = (): Rule[] =>
  (parse(readFileSync(rulesFile, 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> }).groups.flatMap(
    (group) => group.rules,
  );

interface Dashboard {
  title: string;
  uid: string;
  panels: Array<{ id: number; title: string; gridPos: unknown; targets: Array<{ refId: string; expr: string }> }>;
}
const dashboard = (): Dashboard => JSON.parse(readFileSync(dashboardFile, 'utf8')) as Dashboard;

/** transfergate_* names in a PromQL expression. */
const seriesIn = (expr: string) => [...expr.matchAll(/\btransfergate_[a-z0-9_]+/g)].map((m) => m[0]);

function balanced(expr: string): boolean {
  let depth = 0;
  for (const c of expr.replace(/"(?:[^"\\]|\\.)*"/g, '')) {
    if ('({['.includes(c)) depth++;
    if (')}]'.includes(c) && --depth < 0) return false;
  }
  return depth === 0;
}

function promtool(): string | undefined {
  const found = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
  return found.status === 0 ? 'promtool' : undefined;
}

describe('deploy/monitoring', () => {
  let app: TestApp;
  let served: Set<string>;
  let metricsText: string;

  beforeAll(async () => {
    app = await startTestApp('pglite');
    metricsText = await (await fetch(`${app.baseUrl}/metrics`)).text();
    served = new Set<string>();
    for (const match of metricsText.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      const [, name, type] = match as unknown as [string, string, string];
      served.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) served.add(name + suffix);
      if (type === 'summary') for (const suffix of ['_sum', '_count']) served.add(name + suffix);
    }
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('the alert rules: each named, with an expression, a duration, a severity and words for the on-call', () => {
    const all = rules();
    expect(all.length).toBeGreaterThanOrEqual(6);
    const names = all.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of all) {
      expect(rule.alert).toMatch(/^Transfergate[A-Za-z0-9]+$/);
      expect(typeof rule.expr).toBe('string');
      expect(balanced(String(rule.expr))).toBe(true);
      expect(rule.for).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary?.length).toBeGreaterThan(10);
      expect(rule.annotations?.description?.length).toBeGreaterThan(10);
    }
    // The two things an on-call engineer is paged on first: callbacks and open deposits.
    const exprs = all.map((rule) => String(rule.expr)).join('\n');
    expect(exprs).toContain('transfergate_callbacks_failing');
    expect(exprs).toContain('transfergate_oldest_open_deposit_age_seconds');
  });

  it('every alert links its runbook: a section of docs/operations.md that says what to check and do', () => {
    const sections = operationsSections();
    for (const rule of rules()) {
      const url = rule.annotations?.runbook_url ?? '';
      const anchor = /^https:\/\/[^\s#]+\/docs\/operations\.md#([a-z0-9-]+)$/.exec(url)?.[1];
      expect({ alert: rule.alert, anchor }).toEqual({ alert: rule.alert, anchor: rule.alert!.toLowerCase() });
      const section = sections.get(anchor!) ?? '';
      expect({ alert: rule.alert, words: section.split(/\s+/).filter(Boolean).length > 40 }).toEqual({
        alert: rule.alert,
        words: true,
      });
    }
    // The callback alerts name the merchant, whose series the gauge keeps apart.
    for (const name of ['TransfergateCallbacksRetrying', 'TransfergateCallbacksGaveUp']) {
      const rule = rules().find((r) => r.alert === name)!;
      expect(String(rule.expr)).toMatch(/max by \(merchant\)/);
      expect(rule.annotations?.summary).toContain('{{ $labels.merchant }}');
    }
  });

  it('the dashboard: JSON with unique panel ids, each panel with at least one PromQL target', () => {
    const d = dashboard();
    expect(d.title).toBe('transfergate');
    expect(d.uid).toMatch(/^[a-z0-9-]{1,40}$/);
    const ids = d.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of d.panels) {
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const target of panel.targets) expect(balanced(target.expr)).toBe(true);
    }
  });

  it('every transfergate_* series the rules and the dashboard name is served by the app', () => {
    const named = [
      ...rules().flatMap((rule) => seriesIn(String(rule.expr))),
      ...dashboard().panels.flatMap((panel) => panel.targets.flatMap((target) => seriesIn(target.expr))),
    ];
    expect(named.length).toBeGreaterThan(10);
    const missing = [...new Set(named)].filter((name) => !served.has(name));
    expect(missing).toEqual([]);
    // The check is real: a name the app does not serve is caught.
    expect(served.has('transfergate_callbacks_failing_total')).toBe(false);
  });

  it('promtool checks the rules and the /metrics output (required in CI)', () => {
    const tool = promtool();
    if (!tool) {
      // Not installed on this machine: CI installs it (.ci/run), so only a developer's run gets here.
      expect(process.env.CI).not.toBe('true');
      return;
    }
    const checked = spawnSync(tool, ['check', 'rules', rulesFile], { encoding: 'utf8' });
    expect({ status: checked.status, out: checked.stdout + checked.stderr }).toMatchObject({ status: 0 });
    expect(checked.stdout).toContain(`SUCCESS: ${rules().length} rules found`);
    const broken = spawnSync(tool, ['check', 'rules', '/dev/stdin'], {
      encoding: 'utf8',
      input: 'groups:\n  - name: x\n    rules:\n      - alert: X\n        expr: max(transfergate_callbacks_failing\n',
    });
    expect(broken.status).not.toBe(0);
    // The exposition parses (exit 1 would be an error) and our own series pass promtool's lint; the
    // only findings allowed are in prom-client's default process metrics, whose names we do not choose.
    const metrics = spawnSync(tool, ['check', 'metrics'], { encoding: 'utf8', input: metricsText });
    expect([0, 3]).toContain(metrics.status);
    const findings = (metrics.stdout + metrics.stderr).split('\n').filter(Boolean);
    expect(findings.filter((line) => !/^transfergate_(nodejs|process)_\S+ /.test(line))).toEqual([]);
  });
});
