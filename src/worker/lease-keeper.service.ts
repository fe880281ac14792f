import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import type { LeasedEvent } from './leased-event.js';
import { WorkQueueRepository } from './work-queue.repository.js';

interface Held {
  lease: LeasedEvent;
  onLost: () => void;
}

/**
 * The heartbeat: renews, in one statement every third of LEASE_SECONDS, the lease of every
 * event this process is working on, so a slow but alive step is never taken over and run
 * twice, while a crashed process still frees its events within LEASE_SECONDS. A lease that
 * cannot be renewed (its token is gone: another worker took the event) is reported lost, as is
 * one whose renewals kept failing until it expired on this process's clock.
 */
@Injectable()
export class LeaseKeeper {
  private readonly logger = new Logger('Worker');
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly queue: WorkQueueRepository,
  ) {}

  /** Keeps `lease` alive until let go; `onLost` runs once if it is lost first. */
  hold(lease: LeasedEvent, onLost: () => void): void {
    this.held.set(lease.leaseToken, { lease, onLost });
    this.timer ??= setInterval(() => void this.renewAll(), (this.config.LEASE_SECONDS * 1000) / 3).unref();
  }

  letGo(leaseToken: string): void {
    this.held.delete(leaseToken);
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.renewing;
  }

  private renewAll(): Promise<void> {
    this.renewing ??= this.renew().finally(() => (this.renewing = null));
    return this.renewing;
  }

  private async renew(): Promise<void> {
    const tokens = [...this.held.keys()];
    if (tokens.length === 0) return;
    const sentAt = Date.now();
    try {
      const kept = await this.queue.renew(tokens, this.config.LEASE_SECONDS);
      for (const token of tokens) {
        const held = this.held.get(token);
        if (!held) continue;
        if (kept.has(token)) held.lease.validUntil = sentAt + this.config.LEASE_SECONDS * 1000;
        else this.lose(token, held);
      }
    } catch (error) {
      this.logger.warn(`renewing ${tokens.length} lease(s) failed: ${(error as Error).message}`);
      for (const [token, held] of this.held) if (Date.now() >= held.lease.validUntil) this.lose(token, held);
    }
  }

  private lose(token: string, held: Held): void {
    this.held.delete(token);
    held.onLost();
  }
}
