import type { Node } from './sql-statements.js';

type Names = Array<{ String: { sval: string } }>;

/**
 * What the statements so far left, as far as the rules need it: which columns are NOT NULL
 * (declared, or proven by a validated CHECK (col IS NOT NULL), which PostgreSQL uses to skip
 * SET NOT NULL's scan), and the columns of each index by name.
 */
export class SchemaState {
  private readonly notNull = new Set<string>(); // `${table}.${column}`
  private readonly checks = new Map<string, { column: string; validated: boolean }>(); // `${table}.${constraint}`
  private readonly indexes = new Map<string, string[]>(); // index name -> columns ('' for an expression)

  isNotNull(table: string, column: string): boolean {
    if (this.notNull.has(`${table}.${column}`)) return true;
    return [...this.checks].some(([key, c]) => key.startsWith(`${table}.`) && c.column === column && c.validated);
  }

  indexColumns(index: string): string[] | undefined {
    return this.indexes.get(index);
  }

  apply(node: Record<string, Node>): void {
    const create = node.CreateStmt;
    if (create) {
      const table = (create.relation as { relname: string }).relname;
      for (const el of (create.tableElts as Node[] | undefined) ?? []) {
        if (el.ColumnDef) this.column(table, el.ColumnDef as Node);
        if (el.Constraint) this.constraint(table, el.Constraint as Node);
      }
    }
    const index = node.IndexStmt;
    if (index?.idxname) {
      this.indexes.set(String(index.idxname), ((index.indexParams as Array<{ IndexElem: Node }>) ?? []).map((p) => String(p.IndexElem?.name ?? '')));
    }
    const alter = node.AlterTableStmt;
    const table = (alter?.relation as { relname?: string } | undefined)?.relname ?? '';
    for (const { AlterTableCmd: cmd } of (alter?.cmds as Array<{ AlterTableCmd: Node }> | undefined) ?? []) {
      const name = String(cmd.name);
      if (cmd.subtype === 'AT_AddColumn') this.column(table, (cmd.def as { ColumnDef: Node }).ColumnDef);
      if (cmd.subtype === 'AT_SetNotNull') this.notNull.add(`${table}.${name}`);
      if (cmd.subtype === 'AT_DropNotNull' || cmd.subtype === 'AT_DropColumn') this.notNull.delete(`${table}.${name}`);
      if (cmd.subtype === 'AT_AddConstraint') this.constraint(table, (cmd.def as { Constraint: Node }).Constraint);
      if (cmd.subtype === 'AT_DropConstraint') this.checks.delete(`${table}.${name}`);
      const check = this.checks.get(`${table}.${name}`);
      if (cmd.subtype === 'AT_ValidateConstraint' && check) check.validated = true;
    }
  }

  private column(table: string, def: Node): void {
    const constraints = (def.constraints as Array<{ Constraint: Node }> | undefined) ?? [];
    if (constraints.some((c) => c.Constraint?.contype === 'CONSTR_NOTNULL' || c.Constraint?.contype === 'CONSTR_PRIMARY')) {
      this.notNull.add(`${table}.${String(def.colname)}`);
    }
  }

  private constraint(table: string, c: Node): void {
    if (c.contype === 'CONSTR_PRIMARY') {
      const columns = c.indexname ? this.indexes.get(String(c.indexname)) ?? [] : ((c.keys as Names | undefined) ?? []).map((k) => k.String.sval);
      for (const column of columns) this.notNull.add(`${table}.${column}`);
      // USING INDEX renames the index to the constraint's name.
      if (c.indexname && c.conname) this.indexes.set(String(c.conname), columns);
    }
    const test = (c.raw_expr as { NullTest?: Node } | undefined)?.NullTest;
    const fields = ((test?.arg as { ColumnRef?: Node } | undefined)?.ColumnRef?.fields as Names | undefined) ?? [];
    if (c.contype === 'CONSTR_CHECK' && test?.nulltesttype === 'IS_NOT_NULL' && fields.length === 1) {
      this.checks.set(`${table}.${String(c.conname)}`, { column: fields[0].String.sval, validated: !c.skip_validation });
    }
  }
}
