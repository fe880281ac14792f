import { findReceipts, mergeUpdate, purgeReceipts } from '../receipts/receipts.sql.js';
import { DELIVERIES, finishDeliveries, leaseDeliveries } from '../destinations/delivery-queue.sql.js';
import { destinationStateSql } from '../destinations/destination-gates.repository.js';
import { backlogByDestination, createDeliveries, replayDeliveriesOf, replayDeliveryBatch } from '../destinations/destination-jobs.sql.js';
import { PING } from '../health/health.indicators.js';
import { failAttempts, INBOX, leaseEvents, recordSteps } from '../messages/inbox.sql.js';
import { activityGroups, processedByBucket } from '../inspection/activity.repository.js';
import type { BulkReplayRequest } from '../inspection/bulk-replay-request.js';
import { countReplayable } from '../inspection/bulk-replay.repository.js';
import { eventConditions, keysetCondition, m, statusIn } from '../inspection/message-filter-sql.js';
import { deliveryCounts, eventCounts, findEvent, listEvents, oldestUnfinished, statusOf } from '../inspection/message-inspection.repository.js';
import { replayRequestsSql } from '../inspection/replay-requests.repository.js';
import type { ClaimRow } from '../messages/claim-row.js';
import { claimArrays, claimBatch, insertOne, purgeFinished, recordRedelivery } from '../messages/messages.sql.js';
import { replayEvent, replayEventBatch, wakeWorkers } from '../messages/replay.sql.js';
import { inboxStatusCounts } from '../metrics/inbox-stats.repository.js';
import { bound, db, type SnapshotFile } from './query-snapshots.js';

/**
 * Every repository statement with example parameters, per snapshot file (src/queries/<file>.sql,
 * one per table: where a statement is written, not which tables it reads). A statement added
 * to a repository is added here; its text then shows in review as a diff.
 */
const claimRow: ClaimRow = {
  key: 'meta:msg:wamid.1', source: 'meta', kind: 'message', type: 'text', sender: '16505551234', userId: null, tenant: '1234',
  providerTimestamp: new Date(0), fromMe: false, authenticated: true, payload: '{}', copies: 2,
};
const everyFilter = { provider: 'meta', kind: 'message', type: 'text', from: '16505551234', tenant: '1234', since: '2026-01-01T00:00:00.000000Z', until: '2026-02-01T00:00:00.000000Z' } as const;
const cursor = { receivedAtMicros: '1767225600000000', id: 'meta:msg:wamid.1' };
const bulk = (destination: string | null, fromStart: boolean): BulkReplayRequest => ({
  filter: { tenant: '1234' }, status: null, statuses: ['dead', 'failed'], destination, fromStart,
});
const token = '00000000-0000-0000-0000-000000000001';
const window = { bucketSeconds: 60, buckets: 60, from: new Date(0), to: new Date(3_600_000) };

export const SNAPSHOTS: Record<string, SnapshotFile> = {
  messages: {
    'MessagesRepository.claimBatch': bound(claimBatch, claimArrays([claimRow])),
    'WorkQueueRepository.lease': bound(leaseEvents, { maxAttempts: 5, limit: 10, workerId: 'worker-1', leaseSeconds: 30 }),
    'WorkQueueRepository.record': bound(recordSteps, {
      keys: [claimRow.key], tokens: [token], steps: ['forward'], results: ['{}'], attempts: [1], finish: [true],
    }),
    'WorkQueueRepository.fail': bound(failAttempts, { keys: [claimRow.key], tokens: [token], steps: ['forward'], errors: ['HTTP 503'], delays: [1000], maxAttempts: 5 }),
    'WorkQueueRepository.renew': bound(INBOX.renew, { message_id: [claimRow.key], tokens: [token], leaseSeconds: 30 }),
    'WorkQueueRepository.release': bound(INBOX.release, { message_id: [claimRow.key], tokens: [token] }),
    'MessagesRepository.claimOneByOne (insert)': insertOne(db, claimRow),
    'MessagesRepository.claimOneByOne (redelivery)': recordRedelivery(db, claimRow.key, 1),
    'RetentionRepository.purgeFinishedEvents': purgeFinished('processed', 7, 1000, 30),
    'MessageInspectionRepository.replay': replayEvent(claimRow.key, ['dead', 'failed'], true),
    'BulkReplayRepository.replayBatch (events)': replayEventBatch([...eventConditions({ tenant: '1234' }), keysetCondition(cursor, '>')], 100, false),
    'BulkReplayRepository.replayBatch (events, from the start)': replayEventBatch([statusIn('m', ['dead', 'failed', 'processed'])], 100, true),
    'BulkReplayRepository.wakeWorkers': wakeWorkers('messages_inbox'),
    'InboxStatsRepository.read': inboxStatusCounts(db),
    'MessageInspectionRepository.list': listEvents(db, everyFilter, 50, cursor),
    'MessageInspectionRepository.list (by destination and its status)': listEvents(db, { destination: 'crm', status: 'dead' }, 50, null),
    'MessageInspectionRepository.find': findEvent(db, claimRow.key),
    'MessageInspectionRepository.stats (counts)': eventCounts(db, '1234'),
    'MessageInspectionRepository.stats (oldest unfinished)': oldestUnfinished(db, '1234'),
    'MessageInspectionRepository.statusOf': statusOf(db, claimRow.key),
    'ActivityRepository.counts (groups)': activityGroups(db, window, { provider: 'meta' }),
    'ActivityRepository.counts (processed by bucket)': processedByBucket(db, window, {}),
    'BulkReplayRepository.count (events)': countReplayable(db, bulk(null, false)),
  },
  destination_jobs: {
    'DestinationJobsRepository.lease': bound(leaseDeliveries, {
      names: ['crm'], maxAttempts: [5], quotas: [10], perSecond: [null], burst: [null], ordered: [true], windowMs: [0], limit: 10, workerId: 'worker-1', leaseSeconds: 30,
    }),
    'DestinationJobsRepository.finish': bound(finishDeliveries, {
      messageIds: [claimRow.key], destinations: ['crm'], tokens: [token], results: ['{}'], errors: [null], delays: [0], maxAttempts: [5],
    }),
    'DestinationLeasesRepository.renew': bound(DELIVERIES.renew, { message_id: [claimRow.key], destination: ['crm'], tokens: [token], leaseSeconds: 30 }),
    'DestinationLeasesRepository.release': bound(DELIVERIES.release, { message_id: [claimRow.key], destination: ['crm'], tokens: [token] }),
    'DestinationJobsRepository.create': createDeliveries(claimRow.key, [{ destination: 'crm', conversation: null, after: null }], 0, { at: new Date(0), receivedAt: new Date(0) }),
    'MessageInspectionRepository.replayDeliveries': replayDeliveriesOf(claimRow.key, 'crm'),
    'BulkReplayRepository.replayBatch (deliveries)': replayDeliveryBatch([...eventConditions({ tenant: '1234' }), m('j.destination', '=', 'crm'), statusIn('j', ['dead', 'failed'])], 'crm', 100, false),
    'BulkReplayRepository.replayBatch (deliveries, from the start)': replayDeliveryBatch([m('j.destination', '=', 'crm'), statusIn('j', ['dead']), m('m.status', '=', 'processed')], 'crm', 100, true),
    'MessageInspectionRepository.stats (deliveries)': deliveryCounts(db, '1234'),
    'BulkReplayRepository.count (deliveries)': countReplayable(db, bulk('crm', true)),
    'DestinationsOverviewService.list': backlogByDestination(db),
  },
  destination_state: {
    'DestinationGatesRepository.ensure': destinationStateSql.ensure(db, ['crm', 'billing']),
    'DestinationGatesRepository.gates': destinationStateSql.gates(db),
    'DestinationGatesRepository.claimProbe': destinationStateSql.claimProbe(db, 'crm', 30_000),
    'DestinationGatesRepository.record': destinationStateSql.record([
      { destination: 'crm', successes: 0, failures: 2, pauseMs: 0, lastError: 'HTTP 503', threshold: 5, probeIntervalMs: 30_000 },
    ]),
  },
  deliveries: {
    'ReceiptsRepository.apply': mergeUpdate({
      wamid: 'wamid.1', source: 'meta', tenant: '', recipient: '16505551234', status: 'read', at: new Date(0), error: null,
    }),
    'ReceiptsRepository.findAll': findReceipts(db, 'wamid.1', 'meta', 'sales'),
    'ReceiptsRepository.findAll (any source)': findReceipts(db, 'wamid.1'),
    'RetentionRepository.purgeReceipts': purgeReceipts(7, 1000),
  },
  replay_requests: {
    'ReplayRequestsRepository.claim': replayRequestsSql.claim(db, 'key-1', 'hash'),
    'ReplayRequestsRepository.find': replayRequestsSql.find(db, 'key-1'),
    'ReplayRequestsRepository.complete': replayRequestsSql.complete(db, 'key-1', { replayed: 3, dryRun: false, target: 'events', destination: null }),
    'ReplayRequestsRepository.release': replayRequestsSql.release(db, 'key-1'),
  },
  health: {
    'DatabaseIndicator.pingCheck': PING,
  },
};
