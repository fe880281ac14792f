import type { PGlite } from '@electric-sql/pglite';
import { createServer, type Server, type Socket } from 'node:net';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/**
 * Serves one PGlite over the PostgreSQL wire protocol to any number of connections.
 *
 * PGlite has a single backend: two connections whose messages interleave would corrupt each
 * other's unnamed statements, portals and transactions. So one connection at a time owns the
 * backend, from its first message until an exchange ends (Query or Sync) with the backend idle
 * (not inside a transaction); the others queue. Statements and transactions are atomic, as on
 * PostgreSQL; what stays shared is session state (advisory locks, LISTEN), which is why the
 * embedded mode runs one process and polls instead of listening.
 */
export class PGliteServer {
  private server: Server | null = null;
  private owner: Socket | null = null;
  private readonly waiting: Array<() => void> = [];
  private readonly sockets = new Set<Socket>();

  constructor(private readonly db: PGlite) {}

  /** Listens on 127.0.0.1 (port 0: any free port) and returns the port. */
  async listen(port = 0): Promise<number> {
    this.server = createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    return (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    let started = false;
    let chain = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const length = started ? (buffer.length >= 5 ? buffer.readInt32BE(1) + 1 : Infinity) : buffer.length >= 4 ? buffer.readInt32BE(0) : Infinity;
        if (buffer.length < length) break;
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (!started) {
          const code = message.readInt32BE(4);
          if (code === SSL_REQUEST) {
            socket.write('N');
            continue;
          }
          if (code === CANCEL_REQUEST) return void socket.end();
          if (code === PROTOCOL_3) started = true;
        }
        chain = chain
          .then(() => this.handle(socket, message, started ? String.fromCharCode(message[0]) : ''))
          .catch(() => void socket.destroy());
      }
    });
    const closed = () => {
      this.sockets.delete(socket);
      chain = chain.then(() => this.abandon(socket));
    };
    socket.on('close', closed);
    socket.on('error', () => socket.destroy());
  }

  private async handle(socket: Socket, message: Buffer, type: string): Promise<void> {
    if (type === 'X') return void socket.end(); // Terminate: the backend is shared, never end it
    await this.acquire(socket);
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(new Uint8Array(message), { onRawData: (data) => socket.writable && socket.write(data) }),
    );
    // The startup packet (type '' here) also ends with ReadyForQuery.
    if ((type === 'Q' || type === 'S' || type === '') && !this.db.isInTransaction()) this.release(socket);
  }

  /** A connection that went away mid-transaction must not leave the backend inside it. */
  private async abandon(socket: Socket): Promise<void> {
    if (this.owner !== socket) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => undefined);
    this.release(socket);
  }

  private async acquire(socket: Socket): Promise<void> {
    while (this.owner !== null && this.owner !== socket) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.owner = socket;
  }

  private release(socket: Socket): void {
    if (this.owner !== socket) return;
    this.owner = null;
    this.waiting.shift()?.();
  }
}
