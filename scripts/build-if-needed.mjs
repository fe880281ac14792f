// `npm start` builds only when dist/ is missing or older than the sources, so a restart is fast.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The console is built last (`nest build` empties dist/ first): its index.html dates the whole build.
const built = join(root, 'dist', 'console', 'index.html');

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).filter((n) => n !== 'generated').map((n) => newestMtime(join(path, n))));
}

const sources = ['src', 'console', 'prisma', 'package-lock.json', 'tsconfig.json'].map((p) => join(root, p)).filter(existsSync);
if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newestMtime))) process.exit(0);

console.log('[start] building…');
const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(result.status ?? 1);
