import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { metaText, uniqueId } from './support/payloads.js';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';

/**
 * The shipped monitoring: deploy/prometheus/alerts.yml (with its promtool unit tests) and
 * deploy/grafana/dashboard.json. Rules and dashboard queries are checked by promtool (Debian's
 * prometheus package; PROMTOOL names another binary); without it those tests are skipped with a
 * warning, except under CI=true, where a missing promtool is a failure. Whether every metric they
 * use is one the service exports is checked against a running app, promtool or not.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ALERTS = join(ROOT, 'deploy/prometheus/alerts.yml');
const ALERT_TESTS = join(ROOT, 'deploy/prometheus/alerts.test.yml');
const PROMETHEUS_CONFIG = join(ROOT, 'deploy/prometheus/prometheus.yml');
const DASHBOARD = join(ROOT, 'deploy/grafana/dashboard.json');

const PROMTOOL = process.env.PROMTOOL || 'promtool';
const probe = spawnSync(PROMTOOL, ['--version'], { encoding: 'utf8' });
const havePromtool = probe.error === undefined && probe.status === 0;
const MISSING = `promtool not found (${PROMTOOL}: ${probe.error?.message ?? `exit ${probe.status}`}): install Debian's prometheus package or set PROMTOOL`;
if (!havePromtool && process.env.CI !== 'true') console.warn(`${MISSING}; skipping the promtool checks of the alert rules and the dashboard`);

/** Runs promtool; resolves with its exit code and everything it printed (it reports on stdout and stderr). */
function promtool(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, args, { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Asserts promtool succeeded, showing what it printed when it did not. */
async function expectPromtoolSuccess(...args: string[]): Promise<string> {
  const { code, output } = await promtool(...args);
  expect({ command: `promtool ${args.join(' ')}`, code, output: code === 0 ? '(succeeded)' : output }).toEqual({
    command: `promtool ${args.join(' ')}`, code: 0, output: '(succeeded)',
  });
  return output;
}

// ---------------------------------------------------------------------------------------------
// The dashboard

interface Target {
  refId?: string;
  expr?: string;
  datasource?: unknown;
}
interface Panel {
  id?: number;
  type?: string;
  title?: string;
  description?: string;
  datasource?: { type?: string; uid?: string } | string | null;
  targets?: Target[];
  panels?: Panel[];
}
interface Dashboard {
  panels: Panel[];
  templating: { list: { name: string; type: string; query?: unknown }[] };
  annotations?: { list: { name: string; expr?: string }[] };
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
/** Every panel, those inside collapsed rows included. */
const panels: Panel[] = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
const variables = new Set(dashboard.templating.list.map((v) => v.name));

/** Grafana's built-in variables as concrete PromQL, and a value for each of the dashboard's own. */
const BUILT_IN: Record<string, string> = { __rate_interval: '5m', __interval: '1m', __range: '1d', __range_s: '86400', __interval_ms: '60000' };
const VALUES: Record<string, string> = { source: 'meta|waha', destination: 'crm' };

/** A panel's expression with its variables ($x, ${x}, ${x:format}) replaced; an unknown variable throws. */
function concrete(expr: string): string {
  return expr.replace(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    const value = BUILT_IN[name] ?? (variables.has(name) ? VALUES[name] : undefined);
    if (value === undefined) throw new Error(`unknown variable $${name} in ${expr}`);
    return value;
  });
}

describe('deploy/grafana/dashboard.json', () => {
  it('gives every panel a title, a datasource and at least one query', () => {
    expect(panels.length).toBeGreaterThan(10);
    for (const panel of panels) {
      expect({ id: panel.id, title: typeof panel.title === 'string' && panel.title.trim() !== '' }).toEqual({ id: panel.id, title: true });
      expect({ title: panel.title, datasource: panel.datasource ?? null }).toEqual({ title: panel.title, datasource: expect.anything() });
      expect({ title: panel.title, targets: (panel.targets ?? []).length > 0 }).toEqual({ title: panel.title, targets: true });
      for (const target of panel.targets ?? []) expect({ title: panel.title, expr: target.expr?.trim() || null }).toEqual({ title: panel.title, expr: expect.any(String) });
    }
  });

  it('imports anywhere: every datasource is the datasource variable, no fixed uid', () => {
    expect(dashboard.templating.list.find((v) => v.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const uids = [...readFileSync(DASHBOARD, 'utf8').matchAll(/"uid":\s*"([^"]*)"/g)].map((m) => m[1]);
    for (const uid of uids) expect(['${datasource}', 'wdd-overview', '-- Grafana --']).toContain(uid);
  });

  it('says where the per-tenant views are (the tenant is not a metric label)', () => {
    expect(panels.some((p) => /per-tenant/i.test(p.description ?? '') && p.description!.includes('/console'))).toBe(true);
  });

  (havePromtool ? it : it.skip)('has only PromQL expressions that parse (as recording rules, with promtool check rules)', async () => {
    const rules = panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ record: `dashboard:panel_${panel.id}_${target.refId}`, expr: concrete(target.expr!) })),
    );
    for (const [i, annotation] of (dashboard.annotations?.list ?? []).entries()) {
      if (annotation.expr) rules.push({ record: `dashboard:annotation_${i}`, expr: concrete(annotation.expr) });
    }
    const dir = mkdtempSync(join(tmpdir(), 'wdd-dashboard-'));
    try {
      const file = join(dir, 'dashboard-queries.yml');
      writeFileSync(file, JSON.stringify({ groups: [{ name: 'dashboard', rules }] }, null, 2)); // JSON is YAML
      const output = await expectPromtoolSuccess('check', 'rules', file);
      expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The alert rules

describe('deploy/prometheus', () => {
  if (!havePromtool && process.env.CI === 'true') {
    it('has promtool to check the rules with (CI=true)', () => {
      throw new Error(`${MISSING}. CI must check the alert rules and the dashboard: a missing promtool is a failure, not a skip.`);
    });
  }

  (havePromtool ? it : it.skip)('alerts.yml is valid (promtool check rules)', async () => {
    expect(await expectPromtoolSuccess('check', 'rules', ALERTS)).toMatch(/SUCCESS: \d+ rules found/);
  });

  (havePromtool ? it : it.skip)('alerts.yml passes its unit tests (promtool test rules alerts.test.yml)', async () => {
    expect(await expectPromtoolSuccess('test', 'rules', ALERT_TESTS)).toContain('SUCCESS');
  });

  (havePromtool ? it : it.skip)('prometheus.yml is valid and loads alerts.yml (promtool check config)', async () => {
    expect(await expectPromtoolSuccess('check', 'config', PROMETHEUS_CONFIG)).toContain('1 rule files found');
  });

  it('has a unit test that fires every alert', () => {
    const alerts = [...readFileSync(ALERTS, 'utf8').matchAll(/^\s*- alert: (\w+)/gm)].map((m) => m[1]);
    const tested = new Set<string>();
    // An alert counts as tested when some case expects it to fire (an exp_alerts list that is not empty).
    for (const [, name, rest] of readFileSync(ALERT_TESTS, 'utf8').matchAll(/alertname: (\w+)\n(\s*exp_alerts:[^\n]*)/g)) {
      if (!rest.includes('[]')) tested.add(name);
    }
    expect(alerts.length).toBeGreaterThan(5);
    expect(alerts.filter((a) => !tested.has(a))).toEqual([]);
  });

  it('gives every alert a severity, a summary and a description', () => {
    const text = readFileSync(ALERTS, 'utf8');
    const blocks = text.split(/^\s*- (?=alert: )/m).slice(1);
    expect(blocks.length).toBeGreaterThan(5);
    for (const block of blocks) {
      const name = /alert: (\w+)/.exec(block)![1];
      expect({ name, severity: /severity: (critical|warning|info)\b/.test(block), summary: /summary: /.test(block), description: /description: /.test(block) })
        .toEqual({ name, severity: true, summary: true, description: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Every metric they use exists

const ctx = useServiceWithDatabase();

/** Metric names the running service exports: its families, plus _bucket/_sum/_count of histograms and summaries. */
async function exportedNames(): Promise<Set<string>> {
  const res = await fetch(`${ctx.service.baseUrl}/metrics`);
  expect(res.status).toBe(200);
  const names = new Set<string>();
  for (const [, name, type] of (await res.text()).matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

describe('the metrics the alerts and the dashboard use', () => {
  it('are all exported by the service', async () => {
    expect((await postWebhook(ctx.service.baseUrl, metaText(uniqueId()))).body.accepted).toBe(1);
    const exported = await exportedNames();
    expect(exported.has('wdd_last_accepted_event_timestamp_seconds')).toBe(true);

    const used = (file: string) => new Set([...readFileSync(file, 'utf8').matchAll(/\bwdd_[a-z0-9_]*[a-z0-9]\b/g)].map((m) => m[0]));
    const byFile = { 'alerts.yml': used(ALERTS), 'alerts.test.yml': used(ALERT_TESTS), 'dashboard.json': used(DASHBOARD) };
    expect(byFile['alerts.yml'].size).toBeGreaterThan(5);
    expect(byFile['dashboard.json'].size).toBeGreaterThan(5);
    const unknown = Object.fromEntries(Object.entries(byFile).map(([file, names]) => [file, [...names].filter((n) => !exported.has(n)).sort()]));
    expect(unknown).toEqual({ 'alerts.yml': [], 'alerts.test.yml': [], 'dashboard.json': [] });

    // The dashboard's Node.js process metrics come from prom-client's defaults.
    const processMetrics = panels.flatMap((p) => (p.targets ?? []).flatMap((t) => [...(t.expr ?? '').matchAll(/\b(?:nodejs|process)_[a-z0-9_]+/g)].map((m) => m[0])));
    expect(processMetrics.filter((n) => !exported.has(n))).toEqual([]);
  });

  it('are all shown on the dashboard (every wdd_ family the service exports)', async () => {
    const exported = [...(await exportedNames())].filter((n) => n.startsWith('wdd_') && !/_(bucket|sum|count)$/.test(n));
    const dashboardText = readFileSync(DASHBOARD, 'utf8');
    const missing = exported.filter((n) => !dashboardText.includes(n));
    expect(missing).toEqual([]);
  });
});
