import { Logger } from '@nestjs/common';
import type { LeasedJob } from './job-queue.js';

interface Held<J> {
  lease: J;
  onLost: () => void;
}

/**
 * The heartbeat of one queue's worker: renews, in one statement every third of the lease, the
 * lease of every job this process is working on, so a slow but alive step is never taken over
 * and run twice, while a crashed process still frees its jobs within the lease. A lease that
 * cannot be renewed (its token is gone: another worker took the job) is reported lost, as is
 * one whose renewals kept failing until it expired on this process's clock.
 */
export class LeaseKeeper<J extends LeasedJob> {
  private readonly logger = new Logger('Worker');
  private readonly held = new Map<string, Held<J>>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly leaseSeconds: number,
    private readonly renewLeases: (jobs: J[]) => Promise<Set<string>>,
  ) {}

  /** Keeps `lease` alive until let go; `onLost` runs once if it is lost first. */
  hold(lease: J, onLost: () => void): void {
    this.held.set(lease.leaseToken, { lease, onLost });
    this.timer ??= setInterval(() => void this.renewAll(), (this.leaseSeconds * 1000) / 3).unref();
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
    const leases = [...this.held.values()].map((held) => held.lease);
    if (leases.length === 0) return;
    const sentAt = Date.now();
    try {
      const kept = await this.renewLeases(leases);
      for (const lease of leases) {
        const held = this.held.get(lease.leaseToken);
        if (!held) continue;
        if (kept.has(lease.leaseToken)) held.lease.validUntil = sentAt + this.leaseSeconds * 1000;
        else this.lose(lease.leaseToken, held);
      }
    } catch (error) {
      this.logger.warn(`renewing ${leases.length} lease(s) failed: ${(error as Error).message}`);
      for (const [token, held] of this.held) if (Date.now() >= held.lease.validUntil) this.lose(token, held);
    }
  }

  private lose(token: string, held: Held<J>): void {
    this.held.delete(token);
    held.onLost();
  }
}
