import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once (it is injected into each page checked). */
let axeSource: string | undefined;
const source = () => (axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

/** The impacts that fail a test; minor and moderate ones are reported by axe but tolerated. */
const BLOCKING = new Set(['serious', 'critical']);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Runs axe-core (WCAG 2 A and AA rules) on the page as it is now, and fails with a readable list
 * (rule, impact, help, the first elements) when any violation is serious or critical. `what`
 * names the page in the failure message.
 */
export async function expectNoA11yViolations(page: Page, what: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a <script> tag
  // would be refused): the pages are checked exactly as operators get them, CSP on.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(source());
  const violations = (await page.evaluate(`
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] }, resultTypes: ['violations'] })
      .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))
  `)) as AxeViolation[];
  const blocking = violations.filter((v) => v.impact !== null && BLOCKING.has(v.impact));
  if (blocking.length === 0) return;
  const lines = blocking.map((v) => {
    const targets = v.nodes.slice(0, 3).map((n) => n.target.map(String).join(' ')).join(', ');
    const more = v.nodes.length > 3 ? ` (and ${v.nodes.length - 3} more)` : '';
    const why = v.nodes[0]?.failureSummary?.split('\n').slice(1).join(' ').trim();
    return `- ${v.id} [${v.impact}] ${v.help}: ${targets}${more}${why ? `\n    ${why}` : ''}\n    ${v.helpUrl}`;
  });
  throw new Error(`accessibility (axe-core, WCAG 2 A/AA) on ${what}: ${blocking.length} serious or critical violation(s):\n${lines.join('\n')}`);
}
