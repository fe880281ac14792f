import { splitStatements } from './sql-script.js';

const texts = (sql: string) => splitStatements(sql).map((s) => s.text);
const codes = (sql: string) => splitStatements(sql).map((s) => s.code);

describe('splitStatements', () => {
  it('splits on semicolons and drops empty statements and comments', () => {
    expect(texts('-- CreateIndex\nCREATE INDEX a ON t (x);\n\n-- trailing comment\n')).toEqual(['CREATE INDEX a ON t (x)']);
    expect(texts('SELECT 1; SELECT 2;;\n')).toEqual(['SELECT 1', 'SELECT 2']);
    expect(texts('/* only /* nested */ comment */ ; -- and this')).toEqual([]);
  });

  it('keeps semicolons inside literals, quoted identifiers and dollar quotes', () => {
    expect(texts(`INSERT INTO t VALUES ('a;b', 'it''s;'); SELECT "we;ird"""`)).toEqual([
      `INSERT INTO t VALUES ('a;b', 'it''s;')`,
      `SELECT "we;ird"""`,
    ]);
    const fn = `CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  PERFORM 1;\n  RETURN NULL;\nEND\n$$`;
    expect(texts(`${fn};\nCREATE TRIGGER x AFTER INSERT ON t EXECUTE FUNCTION f();`)).toEqual([fn, 'CREATE TRIGGER x AFTER INSERT ON t EXECUTE FUNCTION f()']);
    expect(texts(`SELECT $body$ ; $$ ; $body$; SELECT 2`)).toEqual([`SELECT $body$ ; $$ ; $body$`, 'SELECT 2']);
    expect(texts(`SELECT E'it\\'s;'; SELECT 2`)).toEqual([`SELECT E'it\\'s;'`, 'SELECT 2']);
  });

  it('does not take comment markers or positional parameters inside literals for what they are not', () => {
    expect(texts(`SELECT '--not a comment;' ; SELECT $1`)).toEqual([`SELECT '--not a comment;'`, 'SELECT $1']);
    expect(texts(`SELECT 'a' -- real comment; with a semicolon\n; SELECT 2`)).toEqual([`SELECT 'a'`, 'SELECT 2']);
  });

  it('blanks literals and quoted identifiers in code, so keywords inside them do not count', () => {
    expect(codes(`COMMENT ON INDEX i IS 'built concurrently'`)).toEqual([`COMMENT ON INDEX i IS ''`]);
    expect(codes(`CREATE INDEX CONCURRENTLY "Idx" ON "T" (x)`)).toEqual([`CREATE INDEX CONCURRENTLY "" ON "" (x)`]);
  });
});
