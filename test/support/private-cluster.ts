import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL cluster of a test's own (initdb in a temporary folder, on a free port), so a
 * test may stop and restart PostgreSQL without touching the server the rest of the suite uses.
 * PostgreSQL refuses to run as root: when the tests run as root (CI), it runs as `postgres`.
 */
export class PrivateCluster {
  readonly dir: string;
  port = 0;

  private constructor(private readonly bin: string) {
    this.dir = mkdtempSync(join(tmpdir(), 'wdd-pg-'));
  }

  /** The newest installed PostgreSQL's binaries, or undefined when there are none. */
  static binaries(): string | undefined {
    const root = '/usr/lib/postgresql';
    if (!existsSync(root)) return undefined;
    const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
    return versions.length > 0 ? join(root, versions[0], 'bin') : undefined;
  }

  static async start(): Promise<PrivateCluster> {
    const bin = PrivateCluster.binaries();
    if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql: install postgresql');
    const cluster = new PrivateCluster(bin);
    cluster.port = await freePort();
    if (process.getuid?.() === 0) chownSync(cluster.dir, uidOf('postgres'), gidOf('postgres'));
    chmodSync(cluster.dir, 0o700);
    cluster.run('initdb', ['-D', join(cluster.dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    cluster.pgCtl('start');
    return cluster;
  }

  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** A fast restart (what an operator or a failover does): open connections are cut. */
  restart(): void {
    this.pgCtl('restart', ['-m', 'fast']);
  }

  destroy(): void {
    try {
      this.pgCtl('stop', ['-m', 'immediate']);
    } catch {
      /* already stopped */
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private pgCtl(action: string, extra: string[] = []): void {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=off -c max_connections=100`;
    this.run('pg_ctl', [action, '-D', join(this.dir, 'data'), '-w', '-t', '30', '-l', join(this.dir, 'log'), '-o', options, ...extra]);
  }

  private run(tool: string, args: string[]): void {
    const command = join(this.bin, tool);
    const asRoot = process.getuid?.() === 0;
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
      : spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${tool} ${args[0]} failed: ${result.stderr || result.stdout}`);
  }
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
