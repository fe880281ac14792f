import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { ParsedMigration } from './own-rules.js';
import { busyTablesOf, createdTable } from './own-rules.js';
import type { Violation } from './violation.js';

/**
 * squawk's rules that are about locks and rewrites, the ones docs/migrations.md asks for. Its
 * style rules (prefer-text-field, prefer-bigint-over-int, prefer-robust-stmts…) are left out, and
 * so are three it cannot judge here: require-lock-timeout and require-statement-timeout (the
 * migrator sets lock_timeout itself, and a CONCURRENTLY build must run without one),
 * ban-concurrent-index-creation-in-transaction (the migrator's own rule, checked as
 * concurrently-alone) and adding-not-nullable-field (it cannot see a check validated by an
 * earlier migration: not-null-without-validated-check does).
 */
export const SQUAWK_RULES = new Set([
  'adding-field-with-default', // volatile default or stored generated column: a rewrite
  'adding-foreign-key-constraint', // validates (scans) under SHARE ROW EXCLUSIVE on both tables
  'adding-required-field', // NOT NULL without a default: fails on a non-empty table
  'adding-serial-primary-key-field', // a primary key built under ACCESS EXCLUSIVE, not USING INDEX
  'adding-primary-key-constraint',
  'changing-column-type', // a rewrite (bar a few binary-compatible cases)
  'constraint-missing-not-valid', // CHECK/FK scanned under lock; NOT VALID + VALIDATE in one transaction
  'disallowed-unique-constraint', // a unique index built under ACCESS EXCLUSIVE, not USING INDEX
  'ban-alter-domain-with-add-constraint',
  'require-concurrent-index-creation',
  'require-concurrent-index-deletion',
  'require-concurrent-reindex',
]);

interface SquawkFinding {
  file: string;
  line: number; // 0-based
  rule_name: string;
  message: string;
  help?: string;
}

/** The squawk binary the npm package installed (@squawk-cli/<platform>, an optional dependency). */
function squawkBinary(): string {
  const require = createRequire(import.meta.url);
  const cli = require('squawk-cli/js/index.js') as { getBinaryPath(): string };
  return cli.getBinaryPath();
}

/**
 * squawk over every file; a finding counts when its statement touches a busy table that the
 * migration did not create (squawk already ignores tables created in the same file).
 */
export function squawkRules(migrations: ParsedMigration[]): Violation[] {
  if (migrations.length === 0) return [];
  const args = ['--reporter', 'json', '--pg-version', '15.0', '--assume-in-transaction', ...migrations.map((m) => m.file)];
  const run = spawnSync(squawkBinary(), args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  let findings: SquawkFinding[];
  try {
    findings = JSON.parse(run.stdout) as SquawkFinding[];
  } catch {
    throw new Error(`squawk did not answer JSON (exit ${run.status}): ${run.stderr || run.stdout}`);
  }
  const byFile = new Map(migrations.map((m) => [m.file, m]));
  const violations: Violation[] = [];
  for (const f of findings.filter((x) => SQUAWK_RULES.has(x.rule_name))) {
    const m = byFile.get(f.file);
    const stmt = m?.statements.find((s) => f.line + 1 <= s.endLine && f.line + 1 >= s.line) ??
      m?.statements.find((s) => f.line + 1 <= s.endLine);
    if (!m || !stmt) throw new Error(`squawk reported ${f.rule_name} at ${f.file}:${f.line + 1}, outside every statement`);
    const created = new Set(m.statements.flatMap((s) => createdTable(s.node) ?? []));
    if (!busyTablesOf(stmt.node).some((t) => !created.has(t))) continue;
    const message = `${f.message}${f.help ? ` ${f.help}` : ''}`.replace(/\s+/g, ' ');
    violations.push({ rule: `squawk:${f.rule_name}`, migration: m.name, file: m.file, line: stmt.line, statement: stmt.text, message });
  }
  return violations;
}
