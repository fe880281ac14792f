/** One top-level statement of a migration script. */
export interface SqlStatement {
  /** The statement without comments, trimmed; string literals and quoted identifiers intact. */
  text: string;
  /** The same with the contents of literals, dollar quotes and quoted identifiers blanked: keywords only. */
  code: string;
}

const DOLLAR_TAG = /\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/y;
const WORD_CHAR = /[A-Za-z0-9_$]/;

/**
 * Splits a script into the statements PostgreSQL's lexer would see, so the migrator can tell
 * a lone `CREATE INDEX CONCURRENTLY` from one mixed with others. It knows `--` and nested
 * block comments, '…' and E'…' literals, "…" identifiers and $tag$…$tag$ bodies. It does
 * not know SQL-standard function bodies (`BEGIN ATOMIC … END`): their inner semicolons
 * split, which only ever makes a script look like more statements than it is.
 */
export function splitStatements(sql: string): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let text = '';
  let code = '';
  let i = 0;
  const flush = () => {
    if (text.trim()) statements.push({ text: text.trim(), code: code.trim() });
    text = '';
    code = '';
  };
  while (i < sql.length) {
    const c = sql[i];
    const afterWord = i > 0 && WORD_CHAR.test(sql[i - 1]);
    DOLLAR_TAG.lastIndex = i;
    const tag = c === '$' && !afterWord ? DOLLAR_TAG.exec(sql)?.[0] : undefined;
    if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
      text += ' ';
      code += ' ';
    } else if (sql.startsWith('/*', i)) {
      i = endOfBlockComment(sql, i);
      text += ' ';
      code += ' ';
    } else if (c === "'" || c === '"') {
      // E'…' takes backslash escapes; an E that ends a longer word (WHERE'…') is not a prefix.
      const escapes = c === "'" && /[eE]/.test(sql[i - 1] ?? '') && !(i > 1 && WORD_CHAR.test(sql[i - 2]));
      const end = endOfQuoted(sql, i, c, escapes);
      text += sql.slice(i, end);
      code += `${c}${c}`;
      i = end;
    } else if (tag) {
      const close = sql.indexOf(tag, i + tag.length);
      const end = close === -1 ? sql.length : close + tag.length;
      text += sql.slice(i, end);
      code += `${tag}${tag}`;
      i = end;
    } else if (c === ';') {
      flush();
      i += 1;
    } else {
      text += c;
      code += c;
      i += 1;
    }
  }
  flush();
  return statements;
}

function endOfBlockComment(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else {
      i += 1;
    }
  }
  return sql.length;
}

/** The index after the closing quote; a doubled quote is part of the value, as is \x in E'…'. */
function endOfQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    if (backslashEscapes && sql[i] === '\\') {
      i += 2;
    } else if (sql[i] === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i += 2;
    } else {
      i += 1;
    }
  }
  return sql.length;
}
