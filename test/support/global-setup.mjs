// Jest globalSetup (plain JavaScript: jest loads it before any transform). On the embedded
// database an initdb takes most of a test file's start (seconds each): run it once here, dump
// the fresh, empty cluster, and let each test file start from a copy of it (embedded-template.ts),
// which is the same empty database without the initdb. Workers inherit the variable.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default async function globalSetup() {
  if (process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL) return;
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  const dump = await db.dumpDataDir('none');
  await db.close();
  const path = join(tmpdir(), `wdd-pglite-template-${randomBytes(6).toString('hex')}.tar`);
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  process.env.WDD_TEST_PGLITE_TEMPLATE = path;
}
