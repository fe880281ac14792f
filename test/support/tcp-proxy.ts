import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that a test can cut, to take the database away from a
 * running service without stopping the server the rest of the suite uses.
 */
export class TcpProxy {
  private server = net.createServer((client) => this.accept(client));
  private readonly sockets = new Set<net.Socket>();
  private mode: 'forward' | 'blackhole' = 'forward';
  port = 0;

  constructor(private readonly upstreamHost: string, private readonly upstreamPort: number) {}

  async start(): Promise<this> {
    this.mode = 'forward';
    if (!this.server.listening) {
      this.server = net.createServer((client) => this.accept(client));
      await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
      this.port = (this.server.address() as net.AddressInfo).port;
    }
    return this;
  }

  /** The database is down: connections are refused and open ones are reset. */
  async stop(): Promise<void> {
    this.dropConnections();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The database hangs: connections are accepted and never answered. */
  blackhole(): void {
    this.mode = 'blackhole';
    this.dropConnections();
  }

  private dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private accept(client: net.Socket): void {
    this.track(client);
    if (this.mode === 'blackhole') return;
    const upstream = this.track(net.connect(this.upstreamPort, this.upstreamHost));
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  private track(socket: net.Socket): net.Socket {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
    return socket;
  }
}
