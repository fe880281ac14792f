import { parse } from 'libpg-query';

/** One statement of a migration.sql, as PostgreSQL's own parser (libpg-query) reads it. */
export interface Statement {
  /** 1-based line of its first token (comments before it skipped). */
  line: number;
  /** 1-based line of its last character. */
  endLine: number;
  /** Its text, whitespace collapsed, cut at 160 characters: what a violation quotes. */
  text: string;
  /** Its exact text, comments before it and the final semicolon left out: what a client sends. */
  sql: string;
  /** The parse tree node, e.g. { AlterTableStmt: {...} }. */
  node: Record<string, Node>;
}

// libpg-query's JSON parse tree: nested objects and arrays of them.
export type Node = { [key: string]: unknown };

interface RawStmt {
  stmt: Record<string, Node>;
  stmt_location?: number;
  stmt_len?: number;
}

/** Throws PostgreSQL's own syntax error (with position) for a file that does not parse. */
export async function parseStatements(sql: string): Promise<Statement[]> {
  const bytes = Buffer.from(sql, 'utf8'); // the parser's locations are byte offsets
  const { stmts } = (await parse(sql)) as { stmts?: RawStmt[] };
  return (stmts ?? []).map((s) => {
    const start = s.stmt_location ?? 0;
    const end = s.stmt_len ? start + s.stmt_len : bytes.length;
    const raw = bytes.subarray(start, end).toString('utf8');
    const lead = leadingComments(raw);
    const before = bytes.subarray(0, start).toString('utf8') + raw.slice(0, lead);
    const body = raw.slice(lead).replace(/\s+/g, ' ').trim();
    return {
      line: lineOf(before),
      endLine: lineOf(bytes.subarray(0, end).toString('utf8').trimEnd()),
      sql: raw.slice(lead).trim().replace(/;$/, ''),
      text: body.length > 160 ? `${body.slice(0, 157)}...` : body,
      node: s.stmt,
    };
  });
}

function lineOf(textBefore: string): number {
  let lines = 1;
  for (const ch of textBefore) if (ch === '\n') lines++;
  return lines;
}

/** Length of the whitespace and comments that open a statement's slice (linear scan). */
function leadingComments(raw: string): number {
  let i = 0;
  for (;;) {
    while (i < raw.length && /\s/.test(raw[i])) i++;
    if (raw.startsWith('--', i)) {
      const nl = raw.indexOf('\n', i);
      i = nl < 0 ? raw.length : nl + 1;
    } else if (raw.startsWith('/*', i)) {
      const close = raw.indexOf('*/', i + 2);
      i = close < 0 ? raw.length : close + 2;
    } else {
      return i;
    }
  }
}

/** Every relation a statement names anywhere in its tree (targets, FK references, subqueries). */
export function relationsOf(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const n of node) relationsOf(n, found);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Node)) {
      if ((key === 'relation' || key === 'pktable' || key === 'RangeVar') && isRangeVar(value)) found.add(value.relname);
      relationsOf(value, found);
    }
  }
  return found;
}

function isRangeVar(value: unknown): value is { relname: string } {
  return !!value && typeof value === 'object' && typeof (value as Node).relname === 'string';
}
