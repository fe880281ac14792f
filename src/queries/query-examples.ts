import { findReceipts, mergeUpdate, purgeReceipts } from '../deliveries/deliveries.sql.js';
import { PING } from '../health/health.indicators.js';
import type { ClaimRow } from '../messages/claim-row.js';
import { claimArrays, claimBatch, insertOne, purgeFinished, recordRedelivery } from '../messages/messages.sql.js';
import { inboxStatusCounts } from '../metrics/inbox-stats.repository.js';
import { bound, db, type SnapshotFile } from './query-snapshots.js';

/**
 * Every repository statement with example parameters, per snapshot file (src/queries/<file>.sql).
 * A statement added to a repository is added here; its text then shows in review as a diff.
 */
const claimRow: ClaimRow = {
  key: 'meta:msg:wamid.1', provider: 'meta', kind: 'message', type: 'text', sender: '16505551234', userId: null, tenant: '1234',
  providerTimestamp: new Date(0), fromMe: false, authenticated: true, payload: '{}', copies: 2,
};

export const SNAPSHOTS: Record<string, SnapshotFile> = {
  messages: {
    'MessagesRepository.claimBatch': bound(claimBatch, claimArrays([claimRow])),
    'MessagesRepository.claimOneByOne (insert)': insertOne(db, claimRow),
    'MessagesRepository.claimOneByOne (redelivery)': recordRedelivery(db, claimRow.key, 1),
    'RetentionRepository.purgeFinishedEvents': purgeFinished('processed', 7, 1000, 30),
    'InboxStatsRepository.read': inboxStatusCounts(db),
  },
  deliveries: {
    'DeliveriesRepository.apply': mergeUpdate({
      wamid: 'wamid.1', provider: 'meta', tenant: '', recipient: '16505551234', status: 'read', at: new Date(0), error: null,
    }),
    'DeliveriesRepository.findAll': findReceipts(db, 'wamid.1', 'meta', 'sales'),
    'DeliveriesRepository.findAll (any source)': findReceipts(db, 'wamid.1'),
    'RetentionRepository.purgeDeliveryRecords': purgeReceipts(7, 1000),
  },
  health: {
    'DatabaseIndicator.pingCheck': PING,
  },
};
