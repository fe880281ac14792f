import { getDMMF } from '@prisma/get-dmmf';
import { readFile } from 'node:fs/promises';
import { applyMigrations } from '../src/migrations/migrator.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/**
 * `prisma migrate diff` needs Prisma's schema engine, which cannot be installed here; this
 * compares what schema.prisma declares (its DMMF) with what the committed migrations build.
 */
let db: TestDatabase;
type Dmmf = Extract<Awaited<ReturnType<typeof getDMMF>>, { datamodel: unknown }>;
let datamodel: Dmmf['datamodel'];
/** Index names declared with `where:` (the DMMF does not carry the predicate). */
let partialIndexes: Set<string>;

beforeAll(async () => {
  db = await createTestDatabase();
  await applyMigrations(db.url, { log: () => undefined, warn: () => undefined });
  const schema = await readFile(new URL('../prisma/schema.prisma', import.meta.url), 'utf8');
  partialIndexes = new Set([...schema.matchAll(/map:\s*"(\w+)",\s*where:/g)].map((m) => m[1]));
  const dmmf = await getDMMF({ datamodel: schema });
  if (!('datamodel' in dmmf)) throw new Error(`schema.prisma does not parse: ${JSON.stringify(dmmf)}`);
  datamodel = dmmf.datamodel;
});
afterAll(() => db.drop());

type Field = (typeof datamodel.models)[number]['fields'][number];

/** The column type PostgreSQL reports for a Prisma field (information_schema spelling). */
function expectedColumn(field: Field): string {
  const [native, args = []] = (field.nativeType as [string, string[]] | null) ?? [];
  const enumName = datamodel.enums.find((e) => e.name === field.type)?.dbName ?? field.type;
  switch (field.kind === 'enum' ? 'enum' : field.type) {
    case 'enum': return `USER-DEFINED ${enumName}`;
    case 'String': return native === 'VarChar' ? `character varying(${args[0]})` : native === 'Uuid' ? 'uuid' : 'text';
    case 'Int': return 'integer';
    case 'Float': return 'double precision';
    case 'BigInt': return 'bigint';
    case 'Boolean': return 'boolean';
    case 'Json': return native === 'Json' ? 'json' : 'jsonb';
    case 'DateTime': return `${native === 'Timestamp' ? 'timestamp without time zone' : native === 'Timestamptz' ? 'timestamp with time zone' : 'timestamp without time zone'}(${args[0] ?? 3})`;
    default: throw new Error(`extend expectedColumn for ${field.type}`);
  }
}

describe('schema.prisma and the migrated database', () => {
  it('have the same tables', async () => {
    const tables = await db.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'");
    expect(tables.map((t) => t.table_name).sort()).toEqual(datamodel.models.map((m) => m.dbName ?? m.name).sort());
  });

  it('have the same enums with the same values in the same order', async () => {
    const rows = await db.query(`SELECT t.typname::text AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS values
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`);
    const actual = Object.fromEntries(rows.map((r) => [r.name, r.values]));
    const expected = Object.fromEntries(datamodel.enums.map((e) => [e.dbName ?? e.name, e.values.map((v) => v.dbName ?? v.name)]));
    expect(actual).toEqual(expected);
  });

  it('have the same columns, types, nullability and defaults', async () => {
    for (const model of datamodel.models) {
      const columns = await db.query(
        `SELECT column_name, data_type, udt_name, character_maximum_length, datetime_precision, is_nullable, column_default
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
        [model.dbName ?? model.name],
      );
      const describe = (c: (typeof columns)[number]) => {
        const type = c.data_type === 'USER-DEFINED' ? `USER-DEFINED ${c.udt_name}`
          : c.data_type === 'character varying' ? `character varying(${c.character_maximum_length})`
          : c.data_type.startsWith('timestamp') ? `${c.data_type}(${c.datetime_precision})` : c.data_type;
        return `${c.column_name} ${type} ${c.is_nullable === 'NO' ? 'required' : 'optional'} ${c.column_default === null ? 'no-default' : 'default'}`;
      };
      const scalar = model.fields.filter((f) => f.kind !== 'object');
      const expected = scalar.map((f) => `${f.dbName ?? f.name} ${expectedColumn(f)} ${f.isRequired ? 'required' : 'optional'} ${f.hasDefaultValue ? 'default' : 'no-default'}`);
      expect(columns.map(describe).sort()).toEqual(expected.sort());
    }
  });

  it('have the same indexes and keys', async () => {
    const rows = await db.query(`SELECT ic.relname AS name, t.relname AS table, i.indisunique AS unique, i.indisprimary AS primary,
        i.indpred IS NOT NULL AS partial, array_agg(a.attname::text ORDER BY k.ord) AS columns
      FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'
      GROUP BY ic.relname, t.relname, i.indisunique, i.indisprimary, i.indpred`);
    const actual = rows.map((r) => `${r.table}.${r.name} ${r.primary ? 'primary' : r.unique ? 'unique' : 'index'} (${r.columns.join(',')})${r.partial ? ' partial' : ''}`);
    const expected = datamodel.indexes.map((index) => {
      const model = datamodel.models.find((m) => m.name === index.model)!;
      const column = (name: string) => model.fields.find((f) => f.name === name)!.dbName ?? name;
      const kind = index.type === 'id' ? 'primary' : index.type === 'unique' ? 'unique' : 'index';
      const partial = partialIndexes.has(index.dbName ?? '') ? ' partial' : '';
      return `${model.dbName ?? model.name}.${index.dbName} ${kind} (${index.fields.map((f) => column(f.name)).join(',')})${partial}`;
    });
    expect(actual.sort()).toEqual(expected.sort());
  });

  it('have the same foreign keys with the same delete rules', async () => {
    const rows = await db.query(`SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS target, c.confdeltype AS on_delete,
        (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'f' AND n.nspname = 'public'`);
    const rules: Record<string, string> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };
    const actual = rows.map((r) => `${r.table}(${r.columns.join(',')}) -> ${r.target} on delete ${rules[r.on_delete]}`);
    const expected = datamodel.models.flatMap((model) =>
      model.fields
        .filter((f) => f.kind === 'object' && (f.relationFromFields?.length ?? 0) > 0)
        .map((f) => {
          const target = datamodel.models.find((m) => m.name === f.type)!;
          const column = (name: string) => model.fields.find((x) => x.name === name)!.dbName ?? name;
          return `${model.dbName ?? model.name}(${f.relationFromFields!.map(column).join(',')}) -> ${target.dbName ?? target.name} on delete ${f.relationOnDelete ?? 'Restrict'}`;
        }),
    );
    expect(actual.sort()).toEqual(expected.sort());
  });
});
