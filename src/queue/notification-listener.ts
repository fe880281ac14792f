import { Logger } from '@nestjs/common';
import pg from 'pg';
import type { DatabaseSettings } from '../prisma/database.settings.js';
import { poolConfig } from '../prisma/pool-config.js';

const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * Holds one connection LISTENing on a queue's channel (the messages insert trigger notifies
 * `messages_inbox`), so an idle worker starts on new work within milliseconds instead of at its
 * next poll. When the connection drops it reconnects with backoff; meanwhile the poll alone
 * keeps work moving.
 */
export class NotificationListener {
  private readonly logger = new Logger('Worker');
  private client: pg.Client | null = null;
  private stopped = true;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(
    private readonly database: DatabaseSettings,
    /** A plain identifier: it is written into LISTEN as is. */
    private readonly channel: string,
  ) {}

  start(onNotify: () => void): void {
    this.stopped = false;
    void this.connect(onNotify);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(onNotify: () => void): Promise<void> {
    const { statement_timeout: _ignored, ...options } = poolConfig(this.database);
    const client = new pg.Client({ ...options, application_name: 'whatsapp-webhook-dedup worker listener' });
    let reconnecting = false;
    const reconnect = (error?: Error) => {
      if (reconnecting || this.stopped) return;
      reconnecting = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      const delay = Math.min(MAX_RECONNECT_DELAY_MS, 500 * 2 ** this.failures++);
      if (this.failures === 1) this.logger.warn(`${this.channel} notifications lost (${error?.message ?? 'connection ended'}); polling until reconnected`);
      this.reconnectTimer = setTimeout(() => void this.connect(onNotify), delay);
      this.reconnectTimer.unref();
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    client.on('notification', () => onNotify());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      return reconnect(error as Error);
    }
    if (this.stopped) return void client.end().catch(() => undefined);
    if (this.failures > 0) this.logger.log(`${this.channel} notifications restored`);
    this.failures = 0;
    this.client = client;
    onNotify(); // anything that arrived while we were not listening
  }
}
