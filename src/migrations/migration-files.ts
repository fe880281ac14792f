import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** prisma/migrations at the project root, from src/ (tests) and dist/ (builds) alike. */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

export interface MigrationFile {
  name: string;
  sql: string;
  /** Lowercase hex SHA-256 of the migration.sql bytes, as Prisma records it. */
  checksum: string;
}

/** The committed migrations in the order Prisma applies them (directory name order). */
export async function readMigrationFiles(dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    }),
  );
}
