import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { withProtocolBatches } from './protocol-batches.js';

/** Where `npm start` keeps its data when no DATABASE_URL is set (git-ignored). */
export const EMBEDDED_DATA_DIR = '.data/pglite';

export interface EmbeddedDatabase {
  url: string;
  /** Absent for an in-memory database. */
  dataDir?: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL compiled to WebAssembly (PGlite), served over the wire protocol (pglite-socket) on a loopback
 * port, so the same Prisma adapter, SQL and migrations run on it. `dataDir` persists it;
 * without one it lives in memory (tests).
 */
export async function startEmbeddedDatabase(dataDir?: string, template?: Blob): Promise<EmbeddedDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const release = dataDir === undefined ? () => undefined : lockDataDir(dataDir);
  try {
    // `template`: a dumped data directory to start from (an in-memory copy; skips initdb).
    const db = await PGlite.create(dataDir === undefined ? { loadDataDir: template } : { dataDir: resolve(dataDir) });
    // One backend behind every connection: the server queues messages and keeps a transaction's
    // statements together. Connections are cheap here; the limit only guards against leaks.
    const server = new PGLiteSocketServer({ db: withProtocolBatches(db), host: '127.0.0.1', port: 0, maxConnections: 100 });
    await server.start();
    return {
      url: `postgresql://postgres@${server.getServerConn()}/postgres`,
      dataDir,
      async stop() {
        await server.stop();
        await db.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** PGlite has no lock of its own: a second process on the same directory would corrupt it. */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lock = join(dataDir, '..', `${dataDir.split(/[\\/]/).pop()}.pid`);
  try {
    const holder = Number(readFileSync(lock, 'utf8'));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(`${dataDir} is in use by process ${holder}: the embedded database serves one process; set DATABASE_URL to share a PostgreSQL`);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  writeFileSync(lock, String(process.pid));
  return () => rmSync(lock, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
