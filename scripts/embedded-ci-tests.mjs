// The test files CI also runs on the embedded database (PGlite), besides the whole suite on
// PostgreSQL. Chosen by what they do, not by name, so a new test of the same kind joins
// automatically: every file that sends a large delivery (a batch of 1,000+ events), sets a size,
// queue or time limit, or tests the embedded database itself. These are where PGlite (one
// backend behind every connection, slower statements) parts from PostgreSQL: a 2,000-event
// batch that passed on PostgreSQL failed there, and CI, on PostgreSQL only, did not see it.
// Usage: node scripts/embedded-ci-tests.mjs  → one path per line.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SELECT = /length: [\d_]{4,}|metaBatch\(|[A-Z]+_(LIMIT|TIMEOUT|TIMEOUT_MS|MAX_EVENTS|MAX_MB)\b|CLAIM_QUEUE_|embedded/i;

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (entry.name.endsWith('.e2e-spec.ts')) yield path;
  }
}

const chosen = [...testFiles(join(ROOT, 'test'))].filter((path) => SELECT.test(readFileSync(path, 'utf8'))).map((path) => relative(ROOT, path));
console.log(chosen.sort().join('\n'));
