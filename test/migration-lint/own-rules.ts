import { busyTableOfIndex, isBusy } from './busy-tables.js';
import { SchemaState } from './schema-state.js';
import { relationsOf, type Node, type Statement } from './sql-statements.js';
import type { Violation } from './violation.js';

/** A migration folder, parsed. */
export interface ParsedMigration {
  name: string;
  file: string;
  statements: Statement[];
}

type Report = (rule: string, stmt: Statement, message: string) => void;

/**
 * The rules of docs/migrations.md that no general linter knows: they depend on which tables are
 * busy (busy-tables.ts), on the migrator's one-statement rule for CONCURRENTLY, and on what
 * earlier migrations did (a NOT NULL check validated before SET NOT NULL). squawk-rules.ts adds
 * squawk's rules on rewrites, index builds and constraints.
 */
export function ownRules(migrations: ParsedMigration[]): Violation[] {
  const violations: Violation[] = [];
  const schema = new SchemaState();
  for (const m of migrations) {
    const report: Report = (rule, stmt, message) =>
      violations.push({ rule, migration: m.name, file: m.file, line: stmt.line, statement: stmt.text, message });
    const created = new Set(m.statements.flatMap((s) => createdTable(s.node) ?? []));
    const held: string[] = [];
    for (const stmt of m.statements) {
      const busy = busyTablesOf(stmt.node).filter((t) => !created.has(t));
      // One statement may lock two busy tables at once (a foreign key NOT VALID, briefly); a later
      // statement that locks another is work done while the first table's lock is still held.
      const added = busy.filter((b) => !held.includes(b));
      if (held.length > 0 && added.length > 0) {
        report('one-busy-table', stmt, `locks ${added.join(', ')} in the same transaction that already holds ${held.join(', ')}: ` +
          `that lock is kept while this statement runs; put each busy table's changes in a migration of its own`);
      }
      held.push(...added);
      if (isConcurrent(stmt.node) && m.statements.length > 1) {
        report('concurrently-alone', stmt, 'a CONCURRENTLY statement must be the only statement of its migration ' +
          '(PostgreSQL refuses it in a transaction block; the migrator refuses such a file)');
      }
      for (const why of rewrites(stmt.node)) {
        if (busy.length > 0) report('table-rewrite', stmt, `${why} rewrites ${busy.join(', ')} under ACCESS EXCLUSIVE`);
      }
      for (const why of notNullScans(stmt.node, schema)) {
        if (busy.length > 0) report('not-null-without-validated-check', stmt, `${why}: a scan of all of ${busy[0]} under ACCESS EXCLUSIVE. ` +
          'First add CHECK (column IS NOT NULL) NOT VALID, and VALIDATE it in a later migration');
      }
      schema.apply(stmt.node);
    }
  }
  return violations;
}

/** The busy tables a statement locks: named relations, plus those of the indexes it names. */
export function busyTablesOf(node: Record<string, Node>): string[] {
  const names = relationsOf(node);
  const drop = node.DropStmt;
  if (drop && (drop.removeType === 'OBJECT_TABLE' || drop.removeType === 'OBJECT_INDEX')) {
    for (const o of (drop.objects as Array<{ List: { items: Array<{ String: { sval: string } }> } }>) ?? []) {
      const items = o.List?.items ?? [];
      const name = items[items.length - 1]?.String?.sval;
      if (name) names.add(name);
    }
  }
  const tables = new Set<string>();
  for (const n of names) {
    const table = isBusy(n) ? n : /_(idx|key|pkey)$/.test(n) ? busyTableOfIndex(n) : undefined;
    if (table) tables.add(table);
  }
  return [...tables];
}

/** The table a CREATE TABLE (… AS) statement creates. */
export function createdTable(node: Record<string, Node>): string | undefined {
  const rel = (node.CreateStmt?.relation ?? node.CreateTableAsStmt?.into) as { relname?: string; rel?: { relname: string } } | undefined;
  return rel?.relname ?? rel?.rel?.relname;
}

function isConcurrent(node: Record<string, Node>): boolean {
  if (node.IndexStmt?.concurrent || node.DropStmt?.concurrent) return true;
  const params = (node.ReindexStmt?.params as Array<{ DefElem: { defname: string } }> | undefined) ?? [];
  return params.some((p) => p.DefElem?.defname === 'concurrently');
}

/** Rewrites squawk does not report: VACUUM FULL, CLUSTER, serial/identity columns, SET LOGGED… */
function rewrites(node: Record<string, Node>): string[] {
  const found: string[] = [];
  const vacuumOptions = (node.VacuumStmt?.options as Array<{ DefElem: { defname: string } }> | undefined) ?? [];
  if (vacuumOptions.some((o) => o.DefElem?.defname === 'full')) found.push('VACUUM FULL');
  if (node.ClusterStmt) found.push('CLUSTER');
  for (const cmd of alterCommands(node)) {
    if (cmd.subtype === 'AT_SetLogged' || cmd.subtype === 'AT_SetUnLogged') found.push(`SET ${cmd.subtype === 'AT_SetLogged' ? '' : 'UN'}LOGGED`);
    if (cmd.subtype === 'AT_SetTableSpace') found.push('SET TABLESPACE');
    if (cmd.subtype === 'AT_SetAccessMethod') found.push('SET ACCESS METHOD');
    const column = (cmd.def as { ColumnDef?: Node } | undefined)?.ColumnDef;
    if (cmd.subtype !== 'AT_AddColumn' || !column) continue;
    const typeNames = ((column.typeName as Node | undefined)?.names as Array<{ String: { sval: string } }> | undefined) ?? [];
    if (typeNames.some((t) => /^(small|big)?serial[248]?$/.test(t.String?.sval ?? ''))) found.push('ADD COLUMN of a serial type');
    const constraints = (column.constraints as Array<{ Constraint: Node }> | undefined) ?? [];
    if (constraints.some((c) => c.Constraint?.contype === 'CONSTR_IDENTITY')) found.push('ADD COLUMN … GENERATED AS IDENTITY');
  }
  return found;
}

function alterCommands(node: Record<string, Node>): Node[] {
  const cmds = (node.AlterTableStmt?.cmds as Array<{ AlterTableCmd: Node }> | undefined) ?? [];
  return cmds.map((c) => c.AlterTableCmd).filter(Boolean);
}

/** SET NOT NULL, and a primary key USING INDEX over columns not NOT NULL yet (it sets them so). */
function notNullScans(node: Record<string, Node>, schema: SchemaState): string[] {
  const table = (node.AlterTableStmt?.relation as { relname?: string } | undefined)?.relname ?? '';
  const found: string[] = [];
  for (const cmd of alterCommands(node)) {
    if (cmd.subtype === 'AT_SetNotNull' && !schema.isNotNull(table, String(cmd.name))) found.push(`SET NOT NULL on ${String(cmd.name)} proves it`);
    const c = (cmd.def as { Constraint?: Node } | undefined)?.Constraint;
    if (cmd.subtype !== 'AT_AddConstraint' || c?.contype !== 'CONSTR_PRIMARY' || !c.indexname) continue;
    const columns = schema.indexColumns(String(c.indexname));
    if (!columns) found.push(`no earlier migration built ${String(c.indexname)}, so its columns may need SET NOT NULL`);
    for (const column of (columns ?? []).filter((col) => !schema.isNotNull(table, col))) {
      found.push(`PRIMARY KEY USING INDEX sets NOT NULL on ${column || 'an expression'} and proves it`);
    }
  }
  return found;
}
