import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ownRules, type ParsedMigration } from './own-rules.js';
import { parseStatements } from './sql-statements.js';
import { squawkRules } from './squawk-rules.js';
import type { Violation } from './violation.js';

export interface LintedMigration extends ParsedMigration {
  /** SHA-256 of migration.sql, as _prisma_migrations records it. */
  checksum: string;
}

/**
 * Lints every `<dir>/<name>/migration.sql` in the order they are applied (folder name order), as
 * the migrator reads them: a folder added by anyone is linted without being listed anywhere.
 * Several dirs are read as one (probes on top of the committed migrations). File paths in the
 * result are relative to `root` (the project), as docs/migrations.md quotes them.
 */
export async function lintMigrations(dirs: string | string[], root = process.cwd()): Promise<{ migrations: LintedMigration[]; violations: Violation[] }> {
  const folders: Array<{ name: string; file: string }> = [];
  for (const dir of [dirs].flat()) {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries.filter((x) => x.isDirectory())) folders.push({ name: e.name, file: relative(root, join(dir, e.name, 'migration.sql')) });
  }
  folders.sort((a, b) => a.name.localeCompare(b.name));
  const migrations: LintedMigration[] = [];
  for (const { name, file } of folders) {
    const bytes = await readFile(join(root, file));
    let statements;
    try {
      statements = await parseStatements(bytes.toString('utf8'));
    } catch (err) {
      throw new Error(`${file} does not parse: ${(err as Error).message}`);
    }
    migrations.push({ name, file, statements, checksum: createHash('sha256').update(bytes).digest('hex') });
  }
  const violations = [...ownRules(migrations), ...squawkRules(migrations)];
  violations.sort((a, b) => a.migration.localeCompare(b.migration) || a.line - b.line || a.rule.localeCompare(b.rule));
  return { migrations, violations };
}
