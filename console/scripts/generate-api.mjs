// `npm run console:api`: regenerates console/src/api/schema.d.ts from the service's OpenAPI
// document, the source of truth. Reads OPENAPI_URL when set (a running service's /docs-json);
// otherwise starts the built service (dist/main.js) on a throw-away embedded database.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const SCHEMA_FILE = join(root, 'console/src/api/schema.d.ts');

/** The console uses the operator API only: the document's other routes (webhooks, health, metrics) are left out. */
export const OPERATOR_PATHS = /^\/(messages|deliveries|destinations)(\/|$)/;

/** The TypeScript text for a document: what the committed schema.d.ts must equal (test/console/openapi-client.e2e-spec.ts). */
export async function schemaText(document) {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => OPERATOR_PATHS.test(path)));
  return `${COMMENT_HEADER}${astToString(await openapiTS({ ...document, paths }))}`;
}

async function fromBuiltService() {
  const main = join(root, 'dist/main.js');
  if (!existsSync(main)) throw new Error('dist/main.js is missing: run `npm run build` first');
  const dataDir = mkdtempSync(join(tmpdir(), 'wdd-openapi-'));
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', WORKER_ENABLED: 'false', LOG_LEVEL: 'info', EMBEDDED_DATA_DIR: dataDir };
  for (const name of ['DATABASE_URL', 'NODE_ENV', 'DESTINATIONS_FILE', 'FORWARD_URL']) delete env[name];
  const child = spawn(process.execPath, [main], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const port = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), 60_000);
      const read = (chunk) => {
        output += chunk.toString();
        const match = /listening on port (\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => reject(new Error(`the service exited with ${code}:\n${output}`)));
    });
    return await (await fetch(`http://127.0.0.1:${port}/docs-json`)).json();
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.OPENAPI_URL;
  const document = url ? await (await fetch(url)).json() : await fromBuiltService();
  writeFileSync(SCHEMA_FILE, await schemaText(document));
  console.log(`wrote ${SCHEMA_FILE.slice(root.length)} from ${url ?? 'the built service'}`);
}
