// Runs `prisma generate` on install and before builds, offline-safe.
// Prisma 7's generate first downloads the schema engine, which it never runs; where the
// engine host is unreachable, naming any existing file as the engine lets it proceed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const generated = fileURLToPath(new URL('../src/generated/prisma/client.ts', import.meta.url));

if (process.argv.includes('--if-missing') && existsSync(generated)) process.exit(0);

let prismaCli;
try {
  prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js');
} catch {
  // Production installs (npm ci --omit=dev) ship the already generated client in dist/.
  console.log('[prisma-generate] prisma CLI not installed; skipping generate');
  process.exit(0);
}

const run = (env) =>
  spawnSync(process.execPath, [prismaCli, 'generate'], { cwd: root, env, encoding: 'utf8' });

let result = run(process.env);
if (result.status !== 0 && !process.env.PRISMA_SCHEMA_ENGINE_BINARY) {
  console.log('[prisma-generate] engine download unavailable; generating with a placeholder engine path');
  result = run({ ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath });
}
process.stdout.write(result.stdout ?? '');
if (result.status !== 0) {
  process.stderr.write(result.stderr ?? '');
  process.exit(result.status ?? 1);
}
